import { parseCliArgs, parseControlLine, parseLatency } from './cli-args';

describe('parseCliArgs', () => {
  it('reads a generated fleet and the behaviour settings', () => {
    const { fleet } = parseCliArgs(
      [
        '--count',
        '200',
        '--prefix',
        'D-',
        '--ack-latency',
        '20-80',
        '--failure-rate',
        '0.02',
        '--offline',
        '0.05',
        '--telemetry-interval',
        '1',
        '--lamps-per-gateway',
        '25',
      ],
      { MQTT_URL: 'mqtt://broker:1883' },
    );
    expect(fleet).toEqual({
      mqttUrl: 'mqtt://broker:1883',
      lamps: { count: 200, prefix: 'D-' },
      ackLatencyMs: { min: 20, max: 80 },
      failureRate: 0.02,
      offlineFraction: 0.05,
      telemetryIntervalMs: 1000,
      lampsPerGateway: 25,
      individualConnections: undefined,
    });
  });

  it('speaks for the registry by default', () => {
    const { fleet } = parseCliArgs([], { DATABASE_URL: 'postgres://db/x' });
    expect(fleet.lamps).toEqual({ databaseUrl: 'postgres://db/x' });
    expect(fleet.mqttUrl).toBe('mqtt://127.0.0.1:1883');
    expect(fleet.telemetryIntervalMs).toBe(10_000);
    expect(parseCliArgs(['--from-db', '--multiplexed'], {}).fleet.individualConnections).toBe(false);
  });

  it("simulates the registry's cameras alone with --family camera, and only from the registry", () => {
    const settings = parseCliArgs(['--from-db', '--family', 'camera', '--offline', '0.1'], { DATABASE_URL: 'postgres://x/db' });
    expect(settings.family).toBe('camera');
    expect(settings.fleet.lamps).toEqual({ databaseUrl: 'postgres://x/db' });
    expect(settings.fleet.offlineFraction).toBe(0.1);
    expect(parseCliArgs(['--from-db', '--family=camera'], {}).family).toBe('camera');
    expect(() => parseCliArgs(['--family', 'camera', '--count', '5'], {})).toThrow('--family camera goes with --from-db');
  });

  it('generates a fleet of broadcast terminals with their own activity and no demo', () => {
    const settings = parseCliArgs(
      ['--family', 'broadcast', '--count', '1000', '--prefix', 'BT-', '--activity-rate', '250', '--download-concurrency', '500'],
      {},
    );
    expect(settings).toMatchObject({ family: 'broadcast', activityPerSecond: 250, downloadConcurrency: 500 });
    expect(settings.fleet.lamps).toEqual({ count: 1000, prefix: 'BT-' });
    expect(parseCliArgs(['--family', 'broadcast', '--count', '3'], {}).fleet.lamps).toEqual({ count: 3, prefix: 'BC-' });
    // LED screens, each on a connection of its own.
    expect(parseCliArgs(['--family', 'led', '--count', '2'], {})).toMatchObject({ family: 'led', fleet: { lamps: { count: 2, prefix: 'LED-' } } });
    expect(() => parseCliArgs(['--family', 'led', '--count', '2', '--multiplexed'], {})).toThrow('floor screens each have a connection of their own');
    // Floor screens (ad players), each on a connection of its own.
    expect(parseCliArgs(['--family', 'signage', '--count', '2'], {})).toMatchObject({
      family: 'signage',
      fleet: { lamps: { count: 2, prefix: 'FS-' } },
    });
    // Lamps by default, without activity of their own.
    expect(parseCliArgs(['--count', '3'], {})).toMatchObject({
      family: 'lamp',
      activityPerSecond: 0,
      fleet: { lamps: { count: 3, prefix: 'LAMP-' } },
    });
  });

  it('generates alarm columns pressed at the activity rate', () => {
    const settings = parseCliArgs(['--family', 'alarm', '--count', '200', '--activity-rate', '10'], {});
    expect(settings).toMatchObject({ family: 'alarm', activityPerSecond: 10, fleet: { lamps: { count: 200, prefix: 'ALARM-' } } });
  });
  it('refuses what a family cannot do', () => {
    expect(() => parseCliArgs(['--family', 'wifi', '--count', '3'], {})).toThrow('--family must be one of lamp, broadcast');
    expect(() => parseCliArgs(['--family', 'led', '--count', '3', '--radar-rate', '6'], {})).toThrow('--radar-rate is for radars');
    expect(parseCliArgs(['--family', 'radar', '--count', '3', '--radar-rate', '6'], {})).toMatchObject({ family: 'radar', radarRate: 6 });
    expect(() => parseCliArgs(['--family', 'broadcast'], {})).toThrow('--family goes with --count');
    expect(() => parseCliArgs(['--family', 'broadcast', '--count', '3', '--multiplexed'], {})).toThrow('a connection of their own');
    expect(() => parseCliArgs(['--family', 'broadcast', '--count', '3', '--lamps-per-gateway', '5'], {})).toThrow('--lamps-per-gateway is for lamps');
    expect(() => parseCliArgs(['--count', '3', '--activity-rate', '5'], {})).toThrow('--activity-rate is for broadcast terminals');
    expect(() => parseCliArgs(['--count', '3', '--download-concurrency', '5'], {})).toThrow(
      '--download-concurrency is for broadcast terminals, LED screens and floor screens',
    );
    expect(() => parseCliArgs(['--family', 'broadcast', '--count', '3', '--activity-rate', 'lots'], {})).toThrow('--activity-rate must be');
  });

  it("bounds the LED screens' and floor screens' downloads as the terminals'", () => {
    expect(parseCliArgs(['--family', 'led', '--count', '3', '--download-concurrency', '7'], {}).downloadConcurrency).toBe(7);
    expect(parseCliArgs(['--family', 'signage', '--count', '3', '--download-concurrency', '9'], {}).downloadConcurrency).toBe(9);
  });

  it('starts the simulated clock where and as fast as asked', () => {
    expect(parseCliArgs(['--clock-start', '2026-11-21T17:00:00+08:00', '--clock-speed', '60'], {}).fleet.clock).toEqual({
      start: new Date('2026-11-21T09:00:00Z'),
      speed: 60,
    });
    expect(parseCliArgs([], {}).fleet.clock).toBeUndefined();
    expect(() => parseCliArgs(['--clock-start', 'tonight'], {})).toThrow('--clock-start must be an ISO 8601 time');
  });

  it('refuses bad values with a plain message', () => {
    expect(() => parseCliArgs(['--failure-rate', '2'], {})).toThrow('--failure-rate must be a number from 0 to 1');
    expect(() => parseCliArgs(['--count', 'many'], {})).toThrow('--count');
    expect(() => parseCliArgs(['--from-db', '--count', '3'], {})).toThrow('exclude');
    expect(() => parseCliArgs(['--bogus'], {})).toThrow();
  });
});

describe('parseControlLine', () => {
  it('reads an activity rate, skips empty lines and refuses anything else', () => {
    expect(parseCliArgs(['--family', 'broadcast', '--count', '3', '--control-stdin'], {}).controlStdin).toBe(true);
    expect(parseCliArgs(['--count', '3'], {}).controlStdin).toBe(false);
    expect(parseControlLine(' activity  250 ')).toEqual({ kind: 'activity', perSecond: 250 });
    expect(parseControlLine('activity 0')).toEqual({ kind: 'activity', perSecond: 0 });
    expect(parseControlLine('  ')).toBeNull();
    expect(() => parseControlLine('activity fast')).toThrow('--activity-rate must be a number');
    expect(() => parseControlLine('stop')).toThrow("unknown command 'stop'");
  });

  it("reads 'clock' (the devices' time) and 'clock TIME [SPEED]' (moves it)", () => {
    expect(parseControlLine('clock')).toEqual({ kind: 'clock' });
    expect(parseControlLine(' clock 2030-01-09T09:58:00-05:00 ')).toEqual({ kind: 'clock', at: new Date('2030-01-09T14:58:00Z') });
    expect(parseControlLine('clock 2030-01-09T14:58:00Z 0')).toEqual({ kind: 'clock', at: new Date('2030-01-09T14:58:00Z'), speed: 0 });
    expect(() => parseControlLine('clock soon')).toThrow("clock must be given an ISO 8601 time, not 'soon'");
    expect(() => parseControlLine('clock 2030-01-09T14:58:00Z fast')).toThrow('--clock-speed must be a number');
    expect(() => parseControlLine('clock 2030-01-09T14:58:00Z 60 now')).toThrow("unknown command 'clock 2030-01-09T14:58:00Z 60 now'");
  });
});

describe('parseLatency', () => {
  it('takes a range or a single value', () => {
    expect(parseLatency('50-300')).toEqual({ min: 50, max: 300 });
    expect(parseLatency('120')).toEqual({ min: 120, max: 120 });
    expect(parseLatency(undefined)).toEqual({ min: 50, max: 300 });
    expect(() => parseLatency('300-50')).toThrow();
    expect(() => parseLatency('fast')).toThrow();
  });
});
