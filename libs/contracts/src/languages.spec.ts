import { DEFAULT_LANGUAGE, LANGUAGES, resolveLanguage } from './languages';

describe('resolveLanguage', () => {
  it('falls back to en-US without a header', () => {
    expect(DEFAULT_LANGUAGE).toBe('en-US');
    for (const header of [undefined, null, '', '   ', ',', '*']) expect(resolveLanguage(header)).toBe('en-US');
  });

  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['en-US', 'en-US'],
    ['en-GB', 'en-US'],
    ['en', 'en-US'],
    ['es', 'es'],
    ['es-MX', 'es'],
    ['ja', 'ja'],
    ['ja-JP', 'ja'],
    [' ZH-cn ', 'zh-CN'],
    ['JA', 'ja'],
  ] as const)('maps %p to %p', (header, language) => {
    expect(resolveLanguage(header)).toBe(language);
  });

  it('falls back to en-US when no listed language is supported', () => {
    expect(resolveLanguage('fr-FR')).toBe('en-US');
    expect(resolveLanguage('fr-FR,fr;q=0.9,de;q=0.8')).toBe('en-US');
    expect(resolveLanguage('xx, yy-ZZ')).toBe('en-US');
  });

  it('takes the first supported language in header order when weights are equal', () => {
    expect(resolveLanguage('fr, ja, zh')).toBe('ja');
    expect(resolveLanguage('es;q=0.5, ja;q=0.5')).toBe('es');
    expect(resolveLanguage('de,zh-CN,en-US')).toBe('zh-CN');
  });

  it('ranks by q-value, not by position', () => {
    expect(resolveLanguage('en;q=0.2, zh-CN;q=0.9')).toBe('zh-CN');
    expect(resolveLanguage('fr;q=1, ja;q=0.8, zh;q=0.9')).toBe('zh-CN');
    expect(resolveLanguage('zh-CN;q=0.1, es')).toBe('es');
    expect(resolveLanguage('ja;q=0.3,en-US;q=0.7,zh;q=0.5')).toBe('en-US');
    expect(resolveLanguage('ja ; q=0.9 , es ; q=0.95')).toBe('es');
  });

  it('ignores languages with q=0 or an unreadable q', () => {
    expect(resolveLanguage('zh-CN;q=0, ja;q=0.1')).toBe('ja');
    expect(resolveLanguage('zh-CN;q=0')).toBe('en-US');
    expect(resolveLanguage('ja;q=abc, es;q=0.1')).toBe('es');
  });

  it('only ever answers a supported language', () => {
    for (const header of ['zh', 'en', 'es', 'ja', 'fr', 'de;q=0.5,it', '']) expect(LANGUAGES).toContain(resolveLanguage(header));
  });
});
