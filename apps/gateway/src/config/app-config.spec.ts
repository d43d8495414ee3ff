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

  it('answers to the host names of the console origins and loopback, to the ones it is given, or to any with *', () => {
    expect(loadConfig({}).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ CONSOLE_ORIGIN: 'https://city.example.org, http://10.1.2.3:8080' }).allowedHosts).toEqual([
      'city.example.org',
      '10.1.2.3',
      'localhost',
      '127.0.0.1',
      '[::1]',
    ]);
    expect(loadConfig({ ALLOWED_HOSTS: 'Console.Example.org, console-internal' }).allowedHosts).toEqual(['console.example.org', 'console-internal']);
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).toEqual([]);
  });

  it("serves the broker's accounts as files (Mosquitto), through the hook (EMQX), or not at all; a hook needs its token", () => {
    const secret = { MQTT_CREDENTIAL_SECRET: 's'.repeat(32) };
    expect(loadConfig({}).brokerAccess).toBeNull();
    expect(loadConfig({ MQTT_BROKER_ACCESS_DIR: '/access' }).brokerAccess).toBeNull();
    expect(loadConfig({ ...secret, MQTT_BROKER_ACCESS_DIR: '/access' }).brokerAccess).toEqual({
      dir: '/access',
      secret: secret.MQTT_CREDENTIAL_SECRET,
    });
    expect(() => loadConfig({ ...secret, MQTT_HOOK_PORT: '8090' })).toThrow(/MQTT_HOOK_TOKEN/);
    expect(() => loadConfig({ ...secret, MQTT_HOOK_PORT: '8090', MQTT_HOOK_TOKEN: 'short' })).toThrow(/MQTT_HOOK_TOKEN/);
    const hook = loadConfig({
      ...secret,
      MQTT_HOOK_PORT: '8090',
      MQTT_HOOK_TOKEN: 't'.repeat(24),
      EMQX_API_URL: 'http://emqx-api:18083',
      EMQX_API_KEY: 'key',
      EMQX_API_SECRET: 'api-secret',
    }).brokerAccess;
    expect(hook).toEqual({
      secret: secret.MQTT_CREDENTIAL_SECRET,
      hook: { port: 8090, host: '0.0.0.0', token: 't'.repeat(24) },
      emqx: { url: 'http://emqx-api:18083', key: 'key', secret: 'api-secret' },
    });
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
