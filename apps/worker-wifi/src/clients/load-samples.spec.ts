import type { DeviceEvent } from '@sc/device-runtime';
import { samplesOf } from './load-samples';

const at = (s: number) => new Date(Date.parse('2026-11-20T10:00:00.000Z') + s * 1000).toISOString();
const reading = (s: number, cpu: number, clients?: number): DeviceEvent =>
  ({ kind: 'report', channel: 'telemetry', report: { ts: at(s), cpuRatio: cpu, memoryRatio: 40, diskRatio: 20, clients }, at: at(s) }) as DeviceEvent;

describe('load samples', () => {
  it("keeps each device's last reading of a write as the sample of its minute; client events and offlines are no readings", () => {
    const client = {
      kind: 'report',
      channel: 'event',
      report: { ts: at(50), kind: 'join', clientMac: '02:00:00:00:00:01' },
      at: at(50),
    } as DeviceEvent;
    const samples = samplesOf(
      new Map([
        [1, [reading(10, 5, 3), reading(40, 7, 4), client]],
        [2, [reading(65, 9)]],
        [3, [client, { kind: 'offline', at: at(70) } as DeviceEvent]],
      ]),
    );
    expect(samples).toEqual([
      { id: 1, minute: '2026-11-20T10:00:00.000Z', cpu: 7, memory: 40, disk: 20, clients: 4 },
      { id: 2, minute: '2026-11-20T10:01:00.000Z', cpu: 9, memory: 40, disk: 20, clients: null },
    ]);
  });
});
