import { CAMERA_FAMILY, OnlineState, type CameraAccess, type CameraStateMessage } from '@sc/contracts';
import type { DeviceEvent, FamilyHandler, StoredFields } from '@sc/device-runtime';

/** What video equipment reports (or its probe reads off it): the declared state of CAMERA_FAMILY. */
export type CameraReports = { state: CameraStateMessage };
export type CameraEvent = DeviceEvent<CameraReports>;
export type CameraFields = StoredFields<typeof CAMERA_FAMILY.family>;

/**
 * The equipment after one event: online with what it said of the stored login when it answers, offline (and nothing
 * known of the login) when it stops answering. It takes no commands.
 */
export function reduceCamera(camera: CameraFields, event: CameraEvent): CameraFields {
  switch (event.kind) {
    case 'report':
      return {
        ...camera,
        networkStatus: OnlineState.Online,
        access: (event.report.access as CameraAccess | undefined) ?? camera.access,
        reportedAt: event.at,
      };
    case 'offline':
      return { ...camera, networkStatus: OnlineState.Offline, access: null };
    case 'sending':
    case 'answered':
      return camera;
  }
}

/** Video equipment on the device runtime: its rows in `camera`. */
export const cameraHandler: FamilyHandler<typeof CAMERA_FAMILY.family, CameraReports> = {
  declaration: CAMERA_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    access: { column: 'access', type: 'text' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
  },
  reduce: reduceCamera,
};
