import { LANGUAGES } from '@sc/contracts';
import { CATALOGUES, createServerI18n, keyPaths, translate, translateField } from './index';
import { enUS, enUSAnswers } from './locales/en-US';
import { zhCNAnswers } from './locales/zh-CN';

/** Every key path with its text. */
function entries(value: object, prefix = ''): [string, unknown][] {
  return Object.entries(value).flatMap(([key, child]) =>
    child && typeof child === 'object' ? entries(child as object, `${prefix}${key}.`) : [[`${prefix}${key}`, child] as [string, unknown]],
  );
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const reference = keyPaths(CATALOGUES['en-US']).sort();
const others = LANGUAGES.filter((l) => l !== 'en-US');

describe('i18n catalogue completeness', () => {
  it('has a catalogue for every supported language, and no other', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LANGUAGES].sort());
  });

  it('has a reasonable reference catalogue', () => {
    expect(reference.length).toBeGreaterThan(50);
    expect(reference).toEqual(
      expect.arrayContaining(['messages.passwordInconsistency', 'messages.onlyXlsx', 'messages.fileTooLarge5mb', 'fields.username']),
    );
  });

  it.each(others)('%s has exactly the en-US key set (nothing missing, nothing extra)', (lng) => {
    const keys = keyPaths(CATALOGUES[lng]).sort();
    expect({ missing: reference.filter((k) => !keys.includes(k)), extra: keys.filter((k) => !reference.includes(k)) }).toEqual({
      missing: [],
      extra: [],
    });
  });

  it.each(LANGUAGES)('%s has no empty or non-text value', (lng) => {
    const bad = entries(CATALOGUES[lng]).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
    expect(bad).toEqual([]);
  });

  it.each(others)('%s uses the same placeholders as en-US in every message', (lng) => {
    const english = new Map(entries(CATALOGUES['en-US']));
    const differing = entries(CATALOGUES[lng])
      .filter(([key, text]) => typeof text === 'string' && english.has(key))
      .filter(([key, text]) => placeholders(text as string).join() !== placeholders(english.get(key) as string).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('catches a missing key (self-check of the comparison above)', () => {
    const broken = JSON.parse(JSON.stringify(CATALOGUES.ja)) as { messages: Record<string, string> };
    delete broken.messages.onlyXlsx;
    const keys = keyPaths(broken);
    expect(reference.filter((k) => !keys.includes(k))).toEqual(['messages.onlyXlsx']);
  });
});

describe('translate', () => {
  it('answers the catalogue text of each language', () => {
    expect(translate('en-US', 'passwordInconsistency')).toBe('Password inconsistency');
    expect(translate('zh-CN', 'passwordInconsistency')).toBe(CATALOGUES['zh-CN'].messages.passwordInconsistency);
    expect(translate('es', 'onlyXlsx')).toBe(CATALOGUES.es.messages.onlyXlsx);
    expect(translate('ja', 'fileTooLarge5mb')).toBe(CATALOGUES.ja.messages.fileTooLarge5mb);
  });

  it('interpolates parameters without HTML escaping', () => {
    expect(translate('en-US', 'outOfRange', { min: 1, max: 200 })).toBe('Must be between 1 and 200');
    expect(translate('zh-CN', 'outOfRange', { min: 1, max: 200 })).toBe('必须在 1 到 200 之间');
    expect(translate('en-US', 'usernameTaken', { name: "<b>O'Neil & co</b>" })).toBe('The user name "<b>O\'Neil & co</b>" is already taken');
    expect(translate('en-US', 'tooManyLoginAttempts', { minutes: 15 })).toBe('Too many failed sign-in attempts, please try again in 15 minutes');
    expect(translate('ja', 'tooLong', { max: 64 })).toContain('64');
  });

  it('does not treat interpolated values as further placeholders', () => {
    expect(translate('en-US', 'unknownPermission', { name: '{{max}}', max: 9 })).toBe('Unknown permission: {{max}}');
  });

  it('translates field labels and leaves unknown fields as they are', () => {
    expect(translateField('en-US', 'username')).toBe('User name');
    expect(translateField('zh-CN', 'username')).toBe('用户名');
    expect(translateField('es', 'role')).toBe('role');
    // A list item's field by its place, counted from 1: never a raw path.
    expect(translateField('en-US', 'periods[1].start')).toBe('Start of period 2');
    expect(translateField('ja', 'periods[0].level')).toBe('時間帯 1 の明るさ');
    expect(translateField('en-US', 'periods[0].other')).toBe('periods[0].other');
    // A field inside an object of the request is labelled as the field itself.
    expect(translateField('en-US', 'schedule.periods[1].end')).toBe('End of period 2');
    expect(translateField('zh-CN', 'schedule.startDate')).toBe('开始日期');
    expect(translateField('en-US', 'schedule.unknown')).toBe('schedule.unknown');
  });

  it("translates the answers only the server gives, which the console's catalogue leaves out", () => {
    expect(translate('en-US', 'mediaLinkInvalid')).toBe('This download link is invalid or has expired');
    expect(translate('zh-CN', 'importNoRows')).toBe(zhCNAnswers.importNoRows);
    expect(Object.keys(enUSAnswers).filter((key) => key in enUS.messages)).toEqual([]);
    expect(Object.keys(CATALOGUES['en-US'].messages)).toEqual(expect.arrayContaining(Object.keys(enUSAnswers)));
  });

  it('keeps its own i18next instance', () => {
    const other = createServerI18n();
    void other.changeLanguage('ja');
    expect(translate('en-US', 'pleaseEnter')).toBe('Please enter');
  });
});
