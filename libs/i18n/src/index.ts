import i18next, { type i18n, type TOptions } from 'i18next';
import type { Language } from '@sc/contracts';
import {
  enUS,
  enUSAnswerFields,
  enUSAnswers,
  type AnswerFields,
  type Answers,
  type Catalogue,
  type FieldKey,
  type MessageKey,
} from './locales/en-US';
import { zhCN, zhCNAnswerFields, zhCNAnswers } from './locales/zh-CN';
import { es, esAnswerFields, esAnswers } from './locales/es';
import { ja, jaAnswerFields, jaAnswers } from './locales/ja';

export type { AnswerFields, Answers, Catalogue, FieldKey, MessageKey };

/** What the server translates: the console's catalogue with the answers (and their field labels) only the server gives. */
export type ServerCatalogue = { messages: Catalogue['messages'] & Answers; fields: Catalogue['fields'] & AnswerFields };

const withAnswers = (catalogue: Catalogue, answers: Answers, fields: AnswerFields): ServerCatalogue => ({
  messages: { ...catalogue.messages, ...answers },
  fields: { ...catalogue.fields, ...fields },
});

export const CATALOGUES: Record<Language, ServerCatalogue> = {
  'en-US': withAnswers(enUS, enUSAnswers, enUSAnswerFields),
  'zh-CN': withAnswers(zhCN, zhCNAnswers, zhCNAnswerFields),
  es: withAnswers(es, esAnswers, esAnswerFields),
  ja: withAnswers(ja, jaAnswers, jaAnswerFields),
};

/** A separate i18next instance for the server's answers, so it never shares state with anything else. */
export function createServerI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    initAsync: false,
    resources: Object.fromEntries(Object.entries(CATALOGUES).map(([lng, cat]) => [lng, cat])),
    fallbackLng: 'en-US',
    ns: ['messages', 'fields'],
    defaultNS: 'messages',
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  } as Parameters<i18n['init']>[0]);
  return instance;
}

const serverI18n = createServerI18n();
// i18next's typed overloads cannot see our catalogue; the Catalogue type already guards the keys.
const tr = serverI18n.t.bind(serverI18n) as unknown as (key: string, options: TOptions) => string;

/** Translates a catalogue message for one language. */
export function translate(lng: Language, key: MessageKey, params?: TOptions): string {
  return tr(key, { lng, ns: 'messages', ...params });
}

/** Fields of list items (`periods[1].start`) and the label of each, numbered from 1. */
const LIST_ITEM_FIELDS: Record<string, Record<string, string>> = {
  periods: { start: 'periodStart', end: 'periodEnd', level: 'periodLevel' },
};

/**
 * Translates a field label, falling back to the raw name for fields without a label. A field inside an object of the
 * request (`schedule.startDate`, `schedule.periods[0].end`) is labelled as the field itself.
 */
export function translateField(lng: Language, field: string): string {
  if (serverI18n.exists(field, { lng, ns: 'fields' })) return tr(field, { lng, ns: 'fields' });
  const item = /^(?:\w+\.)*(\w+)\[(\d+)\]\.(\w+)$/.exec(field);
  const key = item ? LIST_ITEM_FIELDS[item[1]]?.[item[3]] : undefined;
  if (key) return tr(key, { lng, ns: 'fields', n: Number(item![2]) + 1 });
  // An ad's zone (`zones[2]`, `zones[2][0].seconds`) is its screen, numbered from 1; an element of a list is the list.
  const zone = /^zones\[(\d+)\]/.exec(field);
  if (zone) return tr('adZone', { lng, ns: 'fields', n: Number(zone[1]) + 1 });
  const list = /^(\w+)\[\d+\]$/.exec(field)?.[1];
  if (list && serverI18n.exists(list, { lng, ns: 'fields' })) return tr(list, { lng, ns: 'fields' });
  const inner = /^\w+\.(\w+)$/.exec(field)?.[1];
  return inner && serverI18n.exists(inner, { lng, ns: 'fields' }) ? tr(inner, { lng, ns: 'fields' }) : field;
}

/** Every key path of a nested catalogue object, e.g. `messages.pleaseEnter`. */
export function keyPaths(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, child]) =>
    child && typeof child === 'object' ? keyPaths(child as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
