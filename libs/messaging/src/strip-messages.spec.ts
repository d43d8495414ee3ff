import { parseStripState } from './device-messages';

const zone = { on: true, type: 2, effect: 5, color: '#ff8800' };

describe('strip light state payloads', () => {
  it('reads the contract and nothing else', () => {
    const state = {
      online: true,
      bri: 50,
      zones: { L: zone, R: { ...zone, on: false, type: 1, effect: -2 } },
      synchronizing: false,
      gatewayId: 'SGW-1',
    };
    expect(parseStripState(JSON.stringify({ ...state, extra: 'dropped' }))).toEqual(state);
    expect(parseStripState('{"online":false}')).toEqual({ online: false });
  });

  it('refuses anything malformed', () => {
    const bad = [
      { online: true, bri: 101, zones: { L: zone, R: zone } },
      { online: true, bri: 50, zones: { L: zone } },
      { online: true, bri: 50, zones: { L: { ...zone, color: 'red' }, R: zone } },
      { online: true, bri: 50, zones: { L: { ...zone, type: 4 }, R: zone } },
      { online: true, bri: 50, zones: { L: { ...zone, effect: 16 }, R: zone } },
      { online: true, bri: 50, zones: { L: zone, R: zone }, synchronizing: 'yes' },
      { online: 'true', bri: 50, zones: { L: zone, R: zone } },
    ];
    for (const payload of bad) expect(parseStripState(JSON.stringify(payload))).toBeNull();
    expect(parseStripState('not json')).toBeNull();
  });
});
