// Live views of cameras, as the console's video page opens them: the gateway hands out signed links, the video worker
// turns the camera's RTSP stream into HLS (one ffmpeg per watched camera, the picture copied), the browser's player
// reads the playlist every second and each new segment. CAMERAS simulated cameras (64) stream over RTSP from the
// simulator (each picture drawn and H.264-encoded by an ffmpeg of its own on this same machine, which is most of the
// load: a real installation's cameras encode their own pictures).
//
//   - open → first segment: GET /api/video/live, the playlist (the first answer waits for the first segment), the
//     segment downloaded: OPENS cameras (10) opened one after another, none watched before (cold);
//   - simultaneous views: VIEWS distinct cameras watched at once (1, 4, 8, 16, 32, 48, 64), each by a player for SECONDS
//     (20): segments that arrived late (the playlist's newest segment older than 3 s when read), failed requests, the
//     CPU of the gateway, the worker and the simulator, the worker's memory; the streams stop between steps;
//   - one camera watched by VIEWERS_ONE (50) players at once: one transcoder whatever their number.
//
//   npx nest build gateway && npx nest build worker-video && npx nest build device-sim
//   npm run bench:video-live                       # VIEWS=1,4 SECONDS=10 for a short run
//
// It creates a database of its own, adds the cameras with SQL, starts the gateway, the video worker and the simulator
// (--from-db --family camera) as separate processes, and removes everything it made. Exit 1 when the p95 of open →
// first segment misses TARGET_MS (3000: "plays within 3 s of opening") or a step up to TARGET_VIEWS (16) had late
// segments or failures; 2 when it could not run. See docs/benchmarks.md.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchPlatform,
  CLK_TCK,
  DEVICE_SIM,
  checkPrerequisites,
  cpuBetween,
  cpuSnapshot,
  finish,
  fmt,
  freePort,
  latencySummary,
  log,
  logAmbientLoad,
  processMemory,
  processTreeTicks,
  withClient,
} from './support/platform.mjs';

const env = process.env;
const settings = {
  cameras: Number(env.CAMERAS ?? 64),
  opens: Number(env.OPENS ?? 10),
  views: (env.VIEWS ?? '1,4,8,16,32,48,64').split(',').map(Number),
  seconds: Number(env.SECONDS ?? 20),
  viewersOne: Number(env.VIEWERS_ONE ?? 50),
  targetMs: Number(env.TARGET_MS ?? 3000),
  targetViews: Number(env.TARGET_VIEWS ?? 16),
};

checkPrerequisites('camera');
const platform = new BenchPlatform('videolive', { family: 'camera' });

/** The gateway's links of a camera's live view. */
async function links(id) {
  const res = await fetch(`${platform.baseUrl}/api/video/live?id=${id}`, { headers: { authorization: `Bearer ${platform.token}` } });
  const body = await res.json();
  if (body.code !== 200) throw new Error(`live links of camera ${id}: ${JSON.stringify(body)}`);
  return body.data;
}

/** The playlist's segment links, newest last, and its media sequence. */
function segmentsOf(text) {
  const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
  return { sequence, segments: text.split('\n').filter((l) => l.startsWith('hls?file=')) };
}

/** Opens a camera cold and times it: links, playlist with a segment, that segment downloaded. */
async function openOnce(id) {
  const t0 = performance.now();
  const { playlist } = await links(id);
  const res = await fetch(`${platform.baseUrl}${playlist}`);
  if (!res.ok) throw new Error(`playlist of camera ${id}: HTTP ${res.status} ${await res.text()}`);
  const { segments } = segmentsOf(await res.text());
  const t1 = performance.now();
  const segment = await fetch(`${platform.baseUrl}/api/video/${segments.at(-1)}`);
  await segment.arrayBuffer();
  if (!segment.ok) throw new Error(`segment of camera ${id}: HTTP ${segment.status}`);
  return { playlistMs: t1 - t0, firstSegmentMs: performance.now() - t0 };
}

/**
 * A player of one camera for `seconds`: the playlist every second, every segment it has not read yet. A read is late
 * when the playlist's media sequence has not moved for more than 3 s (the picture would freeze).
 */
async function play(playlist, seconds, stats) {
  const until = performance.now() + seconds * 1000;
  const seen = new Set();
  let lastMove = performance.now();
  let lastSequence = -1;
  while (performance.now() < until) {
    const t = performance.now();
    try {
      const res = await fetch(`${platform.baseUrl}${playlist}`);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const { sequence, segments } = segmentsOf(await res.text());
      if (sequence + segments.length !== lastSequence) [lastSequence, lastMove] = [sequence + segments.length, performance.now()];
      else if (performance.now() - lastMove > 3000) stats.late++;
      for (const link of segments.filter((l) => !seen.has(l))) {
        seen.add(link);
        const s0 = performance.now();
        const segment = await fetch(`${platform.baseUrl}/api/video/${link}`);
        const bytes = (await segment.arrayBuffer()).byteLength;
        if (!segment.ok) stats.failed++;
        else {
          stats.segments++;
          stats.bytes += bytes;
          stats.segmentMs.push(performance.now() - s0);
        }
      }
    } catch {
      stats.failed++;
    }
    await sleep(Math.max(0, 1000 - (performance.now() - t)));
  }
}

async function main() {
  log(
    `Camera live views: ${fmt(settings.cameras)} simulated cameras, ${settings.opens} cold opens, ${settings.views.join(', ')} views at once ` +
      `for ${settings.seconds} s each, one camera × ${settings.viewersOne} players`,
  );
  await logAmbientLoad();
  const [videoPort, rtspPort] = [await freePort(), await freePort()];
  platform.videoUrl = `http://127.0.0.1:${videoPort}`;
  Object.assign(env, {
    VIDEO_SERVICE_URLS: platform.videoUrl,
    VIDEO_HTTP_PORT: String(videoPort),
    VIDEO_SIM_RTSP_PORT: String(rtspPort),
    VIDEO_MAX_STREAMS: String(Math.max(...settings.views, 1) + 8),
    VIDEO_IDLE_STOP_MS: '3000',
    // The first probe pass must find the simulator's cameras soon after it starts.
    VIDEO_PROBE_INTERVAL_MS: '2000',
  });
  await platform.createDatabase();
  await platform.addDevices(settings.cameras);
  const ids = await withClient(platform.databaseUrl, async (c) => {
    // Only this run's cameras: the demo's point at another simulator.
    await c.query(`UPDATE camera c SET rtsp_url = $1 || '/' || d.code FROM device d WHERE d.id = c.device_id`, [`rtsp://127.0.0.1:${rtspPort}`]);
    return (await c.query(`SELECT device_id AS id FROM camera ORDER BY device_id`)).rows.map((r) => r.id);
  });
  const gateway = await platform.startGateway();
  const worker = await platform.startWorker();
  const fleet = platform.spawn('fleet', [DEVICE_SIM, '--from-db', '--family', 'camera'], { LOG_LEVEL: 'info' });
  await platform.waitFor('fleet', fleet, async () => platform.output('fleet').includes('simulated cameras streaming on demand'));
  // How long the probe takes to find the whole fleet up (a pass every 2 s here): its cost grows with CAMERAS.
  const askedFrom = performance.now();
  const online = await platform.waitOnline(settings.cameras, 180_000);
  log(
    `  gateway ${gateway.pid}, video worker ${worker.pid}, simulator ${fleet.pid}; cameras online (probe) ${fmt(online)} of ${fmt(settings.cameras)} ` +
      `${((performance.now() - askedFrom) / 1000).toFixed(1)} s after the simulator answered, worker RSS ${processMemory(worker.pid).rssMb.toFixed(0)} MB`,
  );
  const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
  const missed = [];
  let next = 0;
  const take = (n) => {
    if (next + n > ids.length) next = 0;
    const taken = ids.slice(next, next + n);
    next += n;
    return taken;
  };

  log('');
  log('Open → first segment (cold cameras, one at a time):');
  const opens = [];
  for (const id of take(settings.opens)) opens.push(await openOnce(id));
  latencySummary(
    'open → playlist',
    opens.map((o) => o.playlistMs),
  );
  const p95 = [...opens.map((o) => o.firstSegmentMs)].sort((a, b) => a - b)[Math.max(0, Math.ceil(0.95 * opens.length) - 1)];
  latencySummary(
    'open → first segment downloaded',
    opens.map((o) => o.firstSegmentMs),
  );
  if (p95 > settings.targetMs) missed.push(`open → first segment p95 ${fmt(p95)} ms > ${settings.targetMs} ms`);
  await sleep(5000);

  log('');
  log(
    '| views | segments | late reads | failed | segment p95 | gateway CPU | worker CPU (with its ffmpeg) | simulator CPU (with its encoders) | machine | worker RSS |',
  );
  log('| ----: | -------: | ---------: | -----: | ----------: | ----------: | ---------: | ------------: | ------: | ---------: |');
  const step = async (label, playlists, views) => {
    const stats = { segments: 0, late: 0, failed: 0, bytes: 0, segmentMs: [] };
    const before = cpuSnapshot(pids);
    // The worker's and the simulator's ffmpeg processes count as theirs.
    const trees = () => ({ worker: processTreeTicks(worker.pid), fleet: processTreeTicks(fleet.pid) });
    const treeBefore = trees();
    await Promise.all(playlists.map((p) => play(p, settings.seconds, stats)));
    const cpu = cpuBetween(before, cpuSnapshot(pids));
    const treeAfter = trees();
    const seconds = settings.seconds;
    for (const name of ['worker', 'fleet']) cpu[name] = (100 * (treeAfter[name] - treeBefore[name])) / CLK_TCK / seconds;
    const sorted = stats.segmentMs.sort((a, b) => a - b);
    const segP95 = sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)] ?? NaN;
    log(
      `| ${label} | ${fmt(stats.segments)} | ${fmt(stats.late)} | ${fmt(stats.failed)} | ${fmt(segP95)} ms | ${cpu.gateway.toFixed(0)} % | ` +
        `${cpu.worker.toFixed(0)} % | ${cpu.fleet.toFixed(0)} % | ${cpu.machineBusy.toFixed(0)} % | ${processMemory(worker.pid).rssMb.toFixed(0)} MB |`,
    );
    if (views <= settings.targetViews && (stats.late || stats.failed)) missed.push(`${label}: ${stats.late} late reads, ${stats.failed} failed`);
    // Nobody watches: the streams stop before the next step.
    await sleep(5000);
  };
  for (const views of settings.views) {
    if (views > ids.length) break;
    const cameras = take(views);
    const playlists = await Promise.all(cameras.map(async (id) => (await links(id)).playlist));
    await step(`${views} camera${views === 1 ? '' : 's'}`, playlists, views);
  }
  const [one] = take(1);
  const { playlist } = await links(one);
  await step(`1 camera × ${settings.viewersOne}`, Array(settings.viewersOne).fill(playlist), 1);

  const rss = processMemory(worker.pid);
  log('');
  log(`  video worker memory at the end ${rss.rssMb.toFixed(0)} MB, peak ${rss.peakMb.toFixed(0)} MB`);
  // The gateway's 503s past the machine's capacity are the table's failed reads; the worker must log no error.
  platform.checkErrors(missed, ['worker']);
  finish(
    missed,
    `Met: open → first segment p95 ${fmt(p95)} ms (target ${settings.targetMs} ms); no late or failed reads up to ${settings.targetViews} views.`,
  );
}

main()
  .catch((err) => platform.reportFailure(err))
  .finally(() => platform.cleanup());
