import i18next from 'i18next';
import type { i18n as I18n, TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storage } from './storage.ts';

/** The languages offered in the picker, besides "System". */
export const PICKER_LANGUAGES = ['en', 'es', 'ru', 'de', 'zh_cn', 'zh_tw', 'fr', 'it', 'pl', 'pt', 'pt_br'] as const;

/** Every catalogue shipped in src/locales: the picker's, and those reached only through the browser's language. */
export const CATALOGUES = [...PICKER_LANGUAGES, 'ja', 'ko', 'nl', 'uk'] as const;
export type Catalogue = (typeof CATALOGUES)[number];

/** Each language's name in itself, as pickers customarily show them. */
export const LANGUAGE_NAMES: Record<Catalogue, string> = {
  en: 'English',
  es: 'Español',
  ru: 'Русский',
  de: 'Deutsch',
  zh_cn: '简体中文',
  zh_tw: '繁體中文',
  fr: 'Français',
  it: 'Italiano',
  pl: 'Polski',
  pt: 'Português',
  pt_br: 'Português (Brasil)',
  ja: '日本語',
  ko: '한국어',
  nl: 'Nederlands',
  uk: 'Українська',
};

export type LanguageChoice = Catalogue | 'system';

/**
 * Catalogues are split by area: locales/<lang>.json for the shell, locales/<area>/<lang>.json for
 * each part of the product; a language is the merge of its files. Only the active language is
 * fetched, and at first only what the sign-in page shows; the rest comes with the signed-in app.
 */
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/**/*.json');

/** Areas the sign-in page shows besides the shell: the second factor step and single sign-on errors. */
const SIGN_IN_AREAS: readonly string[] = ['account', 'sso'];

/** '' for the shell's files in locales/ itself, else the area folder. */
const areaOf = (path: string) => path.replace('../locales/', '').split('/').slice(0, -1).join('/');
const isCatalogueFile = (path: string, catalogue: Catalogue) => path.endsWith(`/${catalogue}.json`);
const isSignInFile = (path: string) => areaOf(path) === '' || SIGN_IN_AREAS.includes(areaOf(path));

function isCatalogue(value: string): value is Catalogue {
  return (CATALOGUES as readonly string[]).includes(value);
}

/** i18next and Intl speak BCP 47 ("zh-CN"); catalogue files are named "zh_cn". */
export function toLocale(catalogue: Catalogue): string {
  const [language, region] = catalogue.split('_');
  return region ? `${language}-${region.toUpperCase()}` : (language ?? 'en');
}

/** Picks the catalogue closest to the browser's preferred languages, English when none fits. */
export function detectBrowserLanguage(languages: readonly string[]): Catalogue {
  for (const tag of languages) {
    const normalized = tag.toLowerCase().replace(/-/g, '_');
    if (isCatalogue(normalized)) return normalized;
    const [primary = '', ...rest] = normalized.split('_');
    if (primary === 'zh') {
      return rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part)) ? 'zh_tw' : 'zh_cn';
    }
    if (isCatalogue(primary)) return primary;
  }
  return 'en';
}

export function getLanguageChoice(): LanguageChoice {
  const stored = storage.getLanguage();
  return stored && isCatalogue(stored) ? stored : 'system';
}

function resolveLanguage(choice: LanguageChoice): Catalogue {
  return choice === 'system' ? detectBrowserLanguage(navigator.languages ?? [navigator.language]) : choice;
}

/** Adds a language's files that pass `include`; a file fetched before comes from the module cache. */
async function loadCatalogue(i18n: I18n, catalogue: Catalogue, include: (path: string) => boolean): Promise<void> {
  const files = Object.entries(loaders).filter(([path]) => isCatalogueFile(path, catalogue) && include(path));
  try {
    const parts = await Promise.all(files.map(([, load]) => load()));
    for (const part of parts) i18n.addResourceBundle(toLocale(catalogue), 'translation', part.default, true, true);
  } catch {
    // A catalogue that fails to load leaves the keys showing rather than no page at all.
  }
}

async function applyLanguage(i18n: I18n, catalogue: Catalogue, include: (path: string) => boolean): Promise<void> {
  await loadCatalogue(i18n, catalogue, include);
  await i18n.changeLanguage(toLocale(catalogue));
  document.documentElement.lang = toLocale(catalogue);
}

/**
 * Initialises i18next with the remembered (or browser) language: what the sign-in page shows, or
 * every area (tests, which render any screen at once).
 */
export async function initI18n(
  choice: LanguageChoice = getLanguageChoice(),
  areas: 'sign-in' | 'all' = 'sign-in',
): Promise<I18n> {
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  });
  await applyLanguage(i18next, resolveLanguage(choice), areas === 'all' ? () => true : isSignInFile);
  return i18next;
}

/** Every area of the active language, for the signed-in app. */
export async function loadAppCatalogues(): Promise<void> {
  await loadCatalogue(i18next, resolveLanguage(getLanguageChoice()), () => true);
}

/** Switches the language and remembers the choice ("system" forgets it and follows the browser). */
export async function changeLanguage(choice: LanguageChoice): Promise<void> {
  storage.setLanguage(choice === 'system' ? null : choice);
  await applyLanguage(i18next, resolveLanguage(choice), () => true);
}

const VALIDATION_KEYS: Record<string, string> = {
  'Name is required': 'validation.nameRequired',
  'Username is required': 'validation.usernameRequired',
  'Email is required': 'validation.emailRequired',
  'Password is required': 'validation.passwordRequired',
  'User is required': 'validation.userRequired',
  'Role is required': 'validation.roleRequired',
  'Must be integer': 'validation.mustBeInteger',
  'Must be 0 or greater': 'validation.mustBeNonNegative',
  'Must be 100000 or less': 'validation.mustBeAtMost100000',
  // Project resources (catalogue area "resources").
  'Title is required': 'resourceValidation.titleRequired',
  'Type is required': 'resourceValidation.typeRequired',
  'ID is required': 'resourceValidation.idRequired',
  'ID may hold only lower-case letters, digits, - and _': 'resourceValidation.idFormat',
  'Priority must be a number': 'resourceValidation.priorityNumber',
  'Priority must be an integer': 'resourceValidation.priorityInteger',
  'App is required': 'resourceValidation.appRequired',
  'URL is required': 'resourceValidation.urlRequired',
  'Incorrect URL': 'resourceValidation.incorrectUrl',
  'Branch is required': 'resourceValidation.branchRequired',
  'Access key is required': 'resourceValidation.accessKeyRequired',
  'Private key is required': 'resourceValidation.privateKeyRequired',
  'User credentials are required': 'resourceValidation.userCredentialsRequired',
  'Path is required': 'resourceValidation.pathRequired',
  'Invalid inventory file pathname. Must be: path/to/inventory.': 'resourceValidation.inventoryPathInvalid',
  'Workspace name is required': 'resourceValidation.workspaceNameRequired',
  'Extra variables must be valid JSON': 'resourceValidation.extraVariablesInvalid',
  'Environment variables must be valid JSON': 'resourceValidation.environmentVariablesInvalid',
  'Environment variable names may hold only letters, digits and _': 'resourceValidation.environmentVariableName',
  'Secret name is required': 'resourceValidation.secretNameRequired',
  'Repository is required': 'resourceValidation.repositoryRequired',
  'Variable group is required': 'resourceValidation.environmentRequired',
  'Inventory is required': 'resourceValidation.inventoryRequired',
  'Playbook filename is required': 'resourceValidation.playbookRequired',
  'Script filename is required': 'resourceValidation.scriptRequired',
  'Start version is required': 'resourceValidation.startVersionRequired',
  'Build template is required': 'resourceValidation.buildTemplateRequired',
  'CLI args must be a JSON array of strings': 'resourceValidation.cliArgsInvalid',
  'Vault names must be unique; only one vault may have no name': 'resourceValidation.vaultNamesUnique',
  'Vault password is required': 'resourceValidation.vaultPasswordRequired',
  'Script name must end with -client (an extension is allowed)': 'resourceValidation.vaultScriptName',
  'Enumeration must have values.': 'resourceValidation.enumNeedsValues',
  'Value name cannot be empty.': 'resourceValidation.enumValueNameEmpty',
  'Enumeration values must have unique names.': 'resourceValidation.enumValuesUnique',
  // Schedules (catalogue area "schedules").
  'Template is required': 'schedules.validation.templateRequired',
  'Cron required': 'schedules.validation.cronRequired',
  'Timing is required': 'schedules.validation.timingRequired',
  'Workflow is required': 'schedules.validation.workflowRequired',
  'Variables must be a JSON object of strings': 'schedules.validation.variablesInvalid',
  // Integrations (catalogue area "integrations").
  'Value Source is required': 'integrations.validation.valueSourceRequired',
  'Match source is required': 'integrations.validation.matchSourceRequired',
  'Body data type is required': 'integrations.validation.bodyDataTypeRequired',
  'Body data format is required': 'integrations.validation.bodyDataFormatRequired',
  'Key is required': 'integrations.validation.keyRequired',
  'Variable is required': 'integrations.validation.variableRequired',
  'Comparison method is required': 'integrations.validation.methodRequired',
  'Value is required': 'integrations.validation.valueRequired',
  'Auth header is required': 'integrations.validation.authHeaderRequired',
  'Auth secret is required': 'integrations.validation.authSecretRequired',
};

/** Translates a contract validation message; unknown messages are shown as they are. */
export function translateValidationMessage(t: TFunction, message: string): string {
  const key = VALIDATION_KEYS[message];
  if (key) return t(key);
  const tooLong = /must be at most (\d+) characters$/.exec(message);
  if (tooLong) return t('validation.tooLong', { max: Number(tooLong[1]) });
  return message;
}
