import { loadConfig, parseTrustProxy, redactUrl } from './app-config';

describe('configuration', () => {
  it('points at the local services on their standard ports by default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      uploadPort: 8888,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/smart_city',
      redisUrl: 'redis://127.0.0.1:6379',
      mqttUrl: 'mqtt://127.0.0.1:1883',
      consoleOrigin: 'http://localhost:8080,http://127.0.0.1:8080',
      trustProxy: false,
    });
    expect(config.login).toEqual({ maxFailuresPerUser: 10, maxFailuresPerIp: 100, windowSeconds: 900 });
  });

  it('believes only the forwarding hops it is told about', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.10')).toEqual(['10.0.0.0/8', '192.168.1.10']);
    expect(() => parseTrustProxy('true')).toThrow('TRUST_PROXY');
  });

  it('hides passwords in printed URLs', () => {
    expect(redactUrl('postgres://city:secret@db:5432/smart_city')).toBe('postgres://city:***@db:5432/smart_city');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
