import { LightEffectType, Zone } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { checkStripEffect } from './strip-effect';

const refusal = (body: Record<string, unknown>) => {
  try {
    checkStripEffect(body);
  } catch (err) {
    const e = err as AppException;
    return { key: e.fields[0]?.key ?? e.key, field: e.fields[0]?.field ?? null };
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
};

describe('strip light effects (spec section 3)', () => {
  it('accepts exactly the effects of each type, on L, R or both', () => {
    const both = [Zone.Left, Zone.Right];
    expect(checkStripEffect({ type: 1, effect: -1, zones: ['L'] })).toEqual({ action: 'on', params: { type: 1, effect: -1, zones: ['L'] } });
    expect(checkStripEffect({ type: 1, effect: -2, zones: ['R'] }).action).toBe('off');
    expect(checkStripEffect({ type: 1, effect: -3, zones: ['R', 'L'] })).toEqual({ action: 'switch', params: { type: 1, effect: -3, zones: both } });
    for (let effect = 1; effect <= 7; effect++) expect(checkStripEffect({ type: 2, effect, zones: both }).action).toBe('breathing');
    for (let effect = 8; effect <= 15; effect++) expect(checkStripEffect({ type: 3, effect, zones: both }).action).toBe('flash');
    expect(checkStripEffect({ type: LightEffectType.SetColour, color: '#FF8800', zones: ['L'] })).toEqual({
      action: 'colour',
      params: { type: 6, color: '#ff8800', zones: ['L'] },
    });
  });

  it('refuses anything else with its own message', () => {
    const cases: [Record<string, unknown>, { key: string; field: string | null }][] = [
      [
        { type: 4, effect: 1, zones: ['L'] },
        { key: 'effectTypeInvalid', field: null },
      ],
      [
        { type: '2', effect: 1, zones: ['L'] },
        { key: 'effectTypeInvalid', field: null },
      ],
      [
        { effect: 1, zones: ['L'] },
        { key: 'effectTypeInvalid', field: null },
      ],
      [
        { type: 2, effect: 8, zones: ['L'] },
        { key: 'effectInvalid', field: 'effect' },
      ],
      [
        { type: 3, effect: 7, zones: ['L'] },
        { key: 'effectInvalid', field: 'effect' },
      ],
      [
        { type: 3, effect: 16, zones: ['L'] },
        { key: 'effectInvalid', field: 'effect' },
      ],
      [
        { type: 1, effect: -4, zones: ['L'] },
        { key: 'effectInvalid', field: 'effect' },
      ],
      [
        { type: 1, effect: 1, zones: ['L'] },
        { key: 'effectInvalid', field: 'effect' },
      ],
      [
        { type: 2, effect: 1.5, zones: ['L'] },
        { key: 'effectInvalid', field: 'effect' },
      ],
      [
        { type: 2, zones: ['L'] },
        { key: 'pleaseSelect', field: 'effect' },
      ],
      [
        { type: 2, effect: 1, color: '#ffffff', zones: ['L'] },
        { key: 'colourOnlyForSetColour', field: 'color' },
      ],
      [
        { type: 6, zones: ['L'] },
        { key: 'pleaseSelect', field: 'color' },
      ],
      [
        { type: 6, effect: 1, color: '#ffffff', zones: ['L'] },
        { key: 'effectNotForColour', field: 'effect' },
      ],
      [
        { type: 6, color: 'red', zones: ['L'] },
        { key: 'colorInvalid', field: 'color' },
      ],
      [
        { type: 2, effect: 1, zones: [] },
        { key: 'zonesInvalid', field: 'zones' },
      ],
      [
        { type: 2, effect: 1 },
        { key: 'zonesInvalid', field: 'zones' },
      ],
      [
        { type: 2, effect: 1, zones: ['M'] },
        { key: 'zonesInvalid', field: 'zones' },
      ],
      [
        { type: 2, effect: 1, zones: ['L', 'L'] },
        { key: 'zonesInvalid', field: 'zones' },
      ],
      [
        { type: 2, effect: 1, zones: 'L' },
        { key: 'zonesInvalid', field: 'zones' },
      ],
    ];
    for (const [body, expected] of cases) expect({ body, ...refusal(body) }).toEqual({ body, ...expected });
  });
});
