/**
 * The client's languages, through i18next: English, Italian, French, Spanish
 * and Arabic (right to left). Every string a view shows is a key of a
 * namespace, one namespace per view (web/src/locales/<language>/<namespace>.json;
 * `t('lobby:title')`); test/web-i18n.e2e-spec.ts fails on a key missing in a
 * language and on a string written into a view instead of a key.
 *
 * The language is the account's (`language` of GET /v1/account) once signed
 * in, else the one chosen on this device, else the browser's first supported
 * one, else English. Numbers and dates are formatted for it (Intl); Arabic
 * with the Maghreb's conventions (ar-TN: Latin digits), our Arabic-speaking
 * players being Tunisian and Algerian.
 */
import i18next from 'i18next';

export const LANGUAGES = ['en', 'it', 'fr', 'es', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's own name, as the language menu shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', it: 'Italiano', fr: 'Français', es: 'Español', ar: 'العربية' };

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set<Language>(['ar']);
/** The locale Intl formats with, per language. */
const FORMAT_LOCALE: Record<Language, string> = { en: 'en', it: 'it', fr: 'fr', es: 'es', ar: 'ar-TN' };
const STORED_KEY = 'scopa.language';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });

/** { language: { namespace: keys } } from the locale files. */
function resources(): Record<string, Record<string, Tree>> {
  const out: Record<string, Record<string, Tree>> = {};
  for (const [file, tree] of Object.entries(files)) {
    const m = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (m) (out[m[1]] ??= {})[m[2]] = tree;
  }
  return out;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language chosen on this device (from the menu, or an account's applied here); null when none was. */
export function chosenLanguage(): Language | null {
  const stored = localStorage.getItem(STORED_KEY);
  return isLanguage(stored) ? stored : null;
}

/** The language chosen on this device, else the browser's first supported one, else English. */
export function detectLanguage(): Language {
  const stored = chosenLanguage();
  if (stored) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

const listeners: (() => void)[] = [];

/** Loads every language (they are bundled) and applies the detected one. */
export async function initI18n(): Promise<void> {
  const res = resources();
  await i18next.init({
    resources: res,
    lng: detectLanguage(),
    fallbackLng: 'en',
    ns: Object.keys(res.en ?? {}),
    defaultNS: 'common',
    // Views put text into text nodes and attributes, never into markup: nothing to escape.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyToDocument();
}

/** The text of a key (`namespace:key`), with its values interpolated (`{{name}}`) and plurals chosen (`count`). */
export function t(key: string, values?: Record<string, unknown>): string {
  return i18next.t(key, values) as string;
}

/** Whether a key has a text (in the language or in English). */
export function hasText(key: string): boolean {
  return i18next.exists(key);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}

export function isRightToLeft(): boolean {
  return RIGHT_TO_LEFT.has(currentLanguage());
}

/** Switches the page to a language (kept on this device); listeners re-render. Unchanged: nothing. */
export async function setLanguage(language: Language): Promise<void> {
  localStorage.setItem(STORED_KEY, language);
  if (language === currentLanguage()) return;
  await i18next.changeLanguage(language);
  applyToDocument();
  for (const listener of listeners) listener();
}

/** Called after every switch of language (the page re-renders its screen). */
export function onLanguageChange(listener: () => void): void {
  listeners.push(listener);
}

function applyToDocument(): void {
  document.documentElement.lang = currentLanguage();
  document.documentElement.dir = isRightToLeft() ? 'rtl' : 'ltr';
}

/** A number in the language's format. */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(FORMAT_LOCALE[currentLanguage()], options).format(n);
}

/** A date (and time, unless told otherwise) in the language's format. */
export function formatDate(date: Date | string | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(FORMAT_LOCALE[currentLanguage()], options).format(new Date(date));
}

/** A list joined in the language's way ("a, b and c"). */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(FORMAT_LOCALE[currentLanguage()], { style: 'long', type: 'conjunction' }).format(items);
}

/** The BCP 47 locale the formats use for the current language (for code outside the page: the service worker). */
export function formatLocale(): string {
  return FORMAT_LOCALE[currentLanguage()];
}
