/**
 * The translation keys of an item dialog: its title for a new item and for an existing one, and the
 * message after a save, which is given the item's name.
 */
export interface ItemTexts {
  newTitle: string;
  editTitle: string;
  created: string;
  saved: string;
}

/**
 * The texts most kinds keep in their own section, for a kind named `noun` there:
 * `keys.newKey`, `keys.editKey`, `keys.created`, `keys.saved`.
 */
export const itemTextsOf = (section: string, noun: string): ItemTexts => ({
  newTitle: `${section}.new${noun}`,
  editTitle: `${section}.edit${noun}`,
  created: `${section}.created`,
  saved: `${section}.saved`,
});
