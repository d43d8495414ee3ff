import { CameraAccess, OnlineState, VideoVendor, type CameraRow } from '@sc/contracts';
import { groupByRegion, matchesCamera } from './camera-groups';

const camera = (id: number, name: string, region: [number, string] | null, online = false, extra: Partial<CameraRow> = {}): CameraRow => ({
  id,
  name,
  code: `CAM-${id}`,
  vendor: VideoVendor.Dahua,
  category: 1,
  subType: 2,
  ip: `10.0.0.${id}`,
  rtspPort: 554,
  channel: 1,
  rtspUrl: '',
  username: '',
  latitude: null,
  longitude: null,
  regionId: region?.[0] ?? null,
  regionName: region?.[1] ?? null,
  poleId: null,
  poleCode: null,
  poleName: null,
  hasPassword: false,
  hasStream: true,
  networkStatus: online ? OnlineState.Online : OnlineState.Offline,
  access: online ? CameraAccess.Ok : null,
  reportedAt: null,
  ...extra,
});

describe('the camera list of the live wall', () => {
  it('groups the cameras by region, regions and cameras by name, those in no region last, counting the online ones', () => {
    const groups = groupByRegion([
      camera(1, 'Gate 10', [2, 'Nanshan'], true),
      camera(2, 'Gate 9', [2, 'Nanshan']),
      camera(3, 'Depot', null, true),
      camera(4, 'Square', [1, 'Futian'], true),
    ]);
    expect(groups.map((g) => [g.regionName, g.cameras.map((c) => c.name), g.online])).toEqual([
      ['Futian', ['Square'], 1],
      ['Nanshan', ['Gate 9', 'Gate 10'], 1],
      [null, ['Depot'], 1],
    ]);
  });

  it('finds a camera by part of its name, code or address, any case', () => {
    const gate = camera(5, 'North Gate', null, false, { rtspUrl: 'rtsp://cam.example/live' });
    expect(matchesCamera(gate, '')).toBe(true);
    expect(matchesCamera(gate, ' north ')).toBe(true);
    expect(matchesCamera(gate, 'cam-5')).toBe(true);
    expect(matchesCamera(gate, '10.0.0.5')).toBe(true);
    expect(matchesCamera(gate, 'CAM.EXAMPLE')).toBe(true);
    expect(matchesCamera(gate, 'south')).toBe(false);
  });
});
