import { decryptDeviceSecret, deviceSecretKey, encryptDeviceSecret } from './device-secrets';

describe('device secrets', () => {
  it('opens what it sealed, and a new seal each time', () => {
    const a = encryptDeviceSecret('key-1', 'pässword:1');
    const b = encryptDeviceSecret('key-1', 'pässword:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('word');
    expect(decryptDeviceSecret('key-1', a)).toBe('pässword:1');
    expect(decryptDeviceSecret('key-1', b)).toBe('pässword:1');
  });

  it('gives nothing for another key, a changed seal or something that is not one', () => {
    const sealed = encryptDeviceSecret('key-1', 'secret');
    expect(decryptDeviceSecret('key-2', sealed)).toBeNull();
    // One character of the tag changed (a whole byte's worth of bits, unlike the last character's padding).
    const at = 'v1:'.length + 20;
    const changed = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(decryptDeviceSecret('key-1', changed)).toBeNull();
    expect(decryptDeviceSecret('key-1', 'secret')).toBeNull();
    expect(decryptDeviceSecret('key-1', 'v1:AAAA')).toBeNull();
  });

  it('takes the installation key from DEVICE_SECRET_KEY, else says it uses the development one', () => {
    expect(deviceSecretKey({ DEVICE_SECRET_KEY: 'k' })).toEqual({ key: 'k', isDefault: false });
    expect(deviceSecretKey({}).isDefault).toBe(true);
  });
});
