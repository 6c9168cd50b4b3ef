import i18next from 'i18next';
import type { i18n as I18n, TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storage } from './storage.ts';

/** Every catalogue shipped in src/locales. */
export const CATALOGUES = ['en', 'es', 'ru', 'de', 'zh_cn', 'zh_tw', 'fr', 'it', 'pl', 'pt', 'pt_br', 'ja', 'ko', 'nl', 'uk'] as const;
export type Catalogue = (typeof CATALOGUES)[number];

/** The languages offered in the picker, besides "System". */
export const PICKER_LANGUAGES: readonly Catalogue[] = ['en', 'es', 'ru', 'de', 'zh_cn', 'zh_tw', 'fr', 'it', 'pl', 'pt', 'pt_br'];

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
 * each part of the product; a language is the merge of its files. English is bundled, the rest load on demand.
 */
const englishParts = import.meta.glob<Record<string, unknown>>('../locales/**/en.json', { eager: true, import: 'default' });
const loaders = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/**/*.json', '!../locales/**/en.json']);

const isCatalogueFile = (path: string, catalogue: Catalogue) => path.endsWith(`/${catalogue}.json`);

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

export function resolveLanguage(choice: LanguageChoice): Catalogue {
  return choice === 'system' ? detectBrowserLanguage(navigator.languages ?? [navigator.language]) : choice;
}

async function loadCatalogue(i18n: I18n, catalogue: Catalogue): Promise<void> {
  const locale = toLocale(catalogue);
  if (catalogue === 'en' || i18n.hasResourceBundle(locale, 'translation')) return;
  const parts = await Promise.all(Object.entries(loaders).filter(([path]) => isCatalogueFile(path, catalogue)).map(([, load]) => load()));
  for (const part of parts) i18n.addResourceBundle(locale, 'translation', part.default, true, true);
}

async function applyLanguage(i18n: I18n, catalogue: Catalogue): Promise<void> {
  try {
    await loadCatalogue(i18n, catalogue);
  } catch {
    // A catalogue that fails to load leaves the English fallback in place.
  }
  await i18n.changeLanguage(toLocale(catalogue));
  document.documentElement.lang = toLocale(catalogue);
}

/** Initialises i18next with English bundled and the remembered (or browser) language loaded. */
export async function initI18n(choice: LanguageChoice = getLanguageChoice()): Promise<I18n> {
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  });
  for (const part of Object.values(englishParts)) i18next.addResourceBundle('en', 'translation', part, true, true);
  await applyLanguage(i18next, resolveLanguage(choice));
  return i18next;
}

/** Switches the language and remembers the choice ("system" forgets it and follows the browser). */
export async function changeLanguage(choice: LanguageChoice): Promise<void> {
  storage.setLanguage(choice === 'system' ? null : choice);
  await applyLanguage(i18next, resolveLanguage(choice));
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
