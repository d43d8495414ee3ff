import { DeviceType, VIDEO_DEVICE_CATEGORIES, VideoVendor } from '@sc/contracts';
import { encryptDeviceSecret } from '@sc/database';
import { DEMO_DEVICE_REGIONS, addDemoDevices, loadDemoOnce, type DemoLoad } from './demo-once';

/** Demo cameras per region, on the regions' demo poles. */
export const DEMO_CAMERAS_PER_REGION = 2;
export const DEMO_CAMERA_COUNT = DEMO_DEVICE_REGIONS.length * DEMO_CAMERAS_PER_REGION;
/** The demo cameras' RTSP login (the simulator's cameras ask for it). */
export const DEMO_CAMERA_LOGIN = { username: 'admin', password: 'demo-camera' } as const;

/** The port the simulator serves the demo cameras' streams on (VIDEO_SIM_RTSP_PORT, 8554 by default). */
export function demoRtspPort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.VIDEO_SIM_RTSP_PORT || 8554);
}

/**
 * Adds the demo cameras to a demo database, once, after its poles: CAM-0001 onwards, two per region on its demo poles,
 * a street camera (IPC, alternately Dahua and Haikang) and a traffic camera (checkpoint), each with its RTSP address at
 * the simulator and the demo login, the password sealed with the installation's key.
 */
export function loadDemoCameras(databaseUrl: string, secretKey: string): Promise<DemoLoad> {
  return loadDemoOnce(databaseUrl, 'demo_cameras', async (tx) => {
    const added = await addDemoDevices(tx, {
      type: DeviceType.VideoEquipment,
      prefix: 'CAM-',
      regions: DEMO_DEVICE_REGIONS,
      perRegion: DEMO_CAMERAS_PER_REGION,
      word: 'camera',
      poleShift: 3,
    });
    const { encoding, checkpoint } = VIDEO_DEVICE_CATEGORIES;
    const port = demoRtspPort();
    const rows = added.map((a) => {
      const traffic = a.n % DEMO_CAMERAS_PER_REGION === 0;
      return {
        id: a.id,
        vendor: a.n % 4 < 2 ? VideoVendor.Dahua : VideoVendor.Haikang,
        category: traffic ? checkpoint.code : encoding.code,
        subType: traffic ? checkpoint.types.trafficCamera : encoding.types.IPC,
        url: `rtsp://127.0.0.1:${port}/CAM-${String(a.n).padStart(4, '0')}`,
      };
    });
    await tx.query(
      `INSERT INTO camera (device_id, vendor, category, sub_type, ip, rtsp_port, rtsp_url, username, password_enc)
       SELECT id, vendor, category, sub_type, '127.0.0.1', $6, url, $7, $8
         FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::text[]) AS t(id, vendor, category, sub_type, url)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.vendor),
        rows.map((r) => r.category),
        rows.map((r) => r.subType),
        rows.map((r) => r.url),
        port,
        DEMO_CAMERA_LOGIN.username,
        encryptDeviceSecret(secretKey, DEMO_CAMERA_LOGIN.password),
      ],
    );
    return added.length;
  });
}
