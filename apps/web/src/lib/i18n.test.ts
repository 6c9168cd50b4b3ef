import { describe, expect, it } from 'vitest';
import { CATALOGUES, detectBrowserLanguage, toLocale } from './i18n.ts';

type Catalogue = { [key: string]: string | Catalogue };

function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') keys.set(path, value);
    else for (const [nested, text] of flatten(value, path)) keys.set(nested, text);
  }
  return keys;
}

const files = import.meta.glob<Catalogue>('../locales/**/*.json', { eager: true, import: 'default' });
/** Every area folder of the catalogues ('' for the shell's files in locales/ itself). */
const areas = [
  ...new Set(Object.keys(files).map((path) => path.replace('../locales/', '').split('/').slice(0, -1).join('/'))),
];
const fileOf = (area: string, name: string) => `../locales/${area ? `${area}/` : ''}${name}.json`;
const load = (name: string, area = '') => flatten(files[fileOf(area, name)] ?? {});
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('catalogues', () => {
  it.each(areas)('area "%s" ships exactly the declared languages', (area) => {
    const names = Object.keys(files)
      .filter(
        (path) =>
          path.startsWith(fileOf(area, '').replace(/\.json$/, '')) &&
          path.split('/').length === fileOf(area, 'x').split('/').length,
      )
      .map((path) => path.split('/').pop()?.replace('.json', ''));
    expect(names.sort()).toEqual([...CATALOGUES].sort());
  });

  it.each(areas.flatMap((area) => CATALOGUES.filter((name) => name !== 'en').map((name) => [area, name] as const)))(
    'area "%s": %s translates every English key with the same placeholders',
    (area, name) => {
      const english = load('en', area);
      const catalogue = load(name, area);
      expect([...catalogue.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of english) {
        expect(text.trim().length, key).toBeGreaterThan(0);
        expect(placeholders(catalogue.get(key) ?? ''), `${name}: ${key}`).toEqual(placeholders(text));
      }
    },
  );
});

describe('detectBrowserLanguage', () => {
  it('matches region-specific catalogues first, then the primary language', () => {
    expect(detectBrowserLanguage(['pt-BR'])).toBe('pt_br');
    expect(detectBrowserLanguage(['pt-PT'])).toBe('pt');
    expect(detectBrowserLanguage(['de-AT', 'en'])).toBe('de');
    expect(detectBrowserLanguage(['zh-HK'])).toBe('zh_tw');
    expect(detectBrowserLanguage(['zh'])).toBe('zh_cn');
  });

  it('falls back to English', () => {
    expect(detectBrowserLanguage(['sv-SE', 'fi'])).toBe('en');
    expect(detectBrowserLanguage([])).toBe('en');
  });

  it('names catalogues with BCP 47 tags for i18next and Intl', () => {
    expect(toLocale('zh_cn')).toBe('zh-CN');
    expect(toLocale('pt_br')).toBe('pt-BR');
    expect(toLocale('uk')).toBe('uk');
  });
});
