import { CameraAccess, OnlineState } from '@sc/contracts';
import { reduceCamera, type CameraFields } from './camera.handler';

const AT = '2026-11-29T10:00:00.000Z';
const offline: CameraFields = { networkStatus: OnlineState.Offline, access: null, reportedAt: null };

describe('reduceCamera', () => {
  it('is online with what it said of the login when it answers, and keeps the last word when a report says nothing of it', () => {
    const refused = reduceCamera(offline, { kind: 'report', channel: 'state', report: { online: true, access: CameraAccess.Unauthorized }, at: AT });
    expect(refused).toEqual({ networkStatus: OnlineState.Online, access: CameraAccess.Unauthorized, reportedAt: AT });
    const later = '2026-11-29T10:00:30.000Z';
    expect(reduceCamera(refused, { kind: 'report', channel: 'state', report: { online: true }, at: later })).toEqual({
      networkStatus: OnlineState.Online,
      access: CameraAccess.Unauthorized,
      reportedAt: later,
    });
  });

  it('forgets the login answer when it goes offline, keeping when it was last heard', () => {
    const online: CameraFields = { networkStatus: OnlineState.Online, access: CameraAccess.Ok, reportedAt: AT };
    expect(reduceCamera(online, { kind: 'offline', at: '2026-11-29T10:05:00.000Z' })).toEqual({
      networkStatus: OnlineState.Offline,
      access: null,
      reportedAt: AT,
    });
  });
});
