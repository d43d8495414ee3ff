import { parseRange } from './file-response';

describe('parseRange', () => {
  const SIZE = 1000;

  it('reads one range of bytes: a-b, a- and the last n, clipped to the file', () => {
    expect(parseRange('bytes=0-99', SIZE)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=500-', SIZE)).toEqual({ start: 500, end: 999 });
    expect(parseRange('bytes=-100', SIZE)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', SIZE)).toEqual({ start: 0, end: 999 });
    expect(parseRange('bytes=990-5000', SIZE)).toEqual({ start: 990, end: 999 });
    expect(parseRange(' bytes=999-999 ', SIZE)).toEqual({ start: 999, end: 999 });
  });

  it('serves the whole file for no header, another unit, several ranges or a malformed one', () => {
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'items=0-5', 'bytes=0-5,10-20', 'bytes=5-1', 'bytes=a-b', 'bytes=1.5-2']) {
      expect(parseRange(header, SIZE)).toBeNull();
    }
  });

  it('answers unsatisfiable for a range starting past the end, or an empty suffix', () => {
    expect(parseRange('bytes=1000-', SIZE)).toBe('unsatisfiable');
    expect(parseRange('bytes=1000-1001', SIZE)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', SIZE)).toBe('unsatisfiable');
  });
});
