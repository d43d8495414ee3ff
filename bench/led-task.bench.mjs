// LED task fan-out: an LED task aimed at a region, published to SCREENS simulated LED screens (10,000) through the
// real API, until every ledger row is terminal. Each run sends three things to the region one after another: a
// brightness command (the ledger, MQTT and the screens' acks without any file: the time minus the download), a task
// with a picture of about a hundred bytes (a task's path with a download next to nothing: one signed HTTP fetch per
// screen), and a task with a picture of MEDIA_KB (100 kB) that every screen fetches from the gateway's signed link
// and checks before it acks (with the download). For the last it also says when every screen had said it received
// the command (its first receipt, sent before it downloads).
//
//   npx nest build gateway && npx nest build worker-led && npx nest build device-sim
//   npm run bench:led-task                         # SCREENS=500 RUNS=1 for a short run
//
// It creates a database of its own (sc_bench_ledtask_<hex>), migrates it and loads the demo data with the built gateway,
// adds the screens with SQL (codes B<HEX>-00001 …, in a region of their own; the demo's screens are removed), starts the
// gateway, the LED worker and the device simulator (`--family led`: every screen on an MQTT connection of its own) as
// separate processes with this run's REDIS_PREFIX and intake group, makes the two pictures with sharp and uploads them
// on the upload port as admin, waits until every screen reported online, then for each of RUNS runs sends POST
// /api/led/ledBrightness {regionId}, then saves a task aimed at the region (POST /api/led/taskAddOrEdit {regionIds})
// and publishes it (POST /api/led/taskPublish), with the small picture, then with the large one, each time polling
// the dispatch's tally every 100 ms until all rows are terminal. It checks that every screen applied each command and
// task exactly once (the simulator's applied commands per screen), prints CPU and memory of each process, and removes
// everything it made (database, Redis keys, retained MQTT messages, upload directory). Exit 1 when a check fails (or
// TARGET_SECONDS is given and missed), 2 when it could not run. See docs/benchmarks.md.
import {
  BenchPlatform,
  ackTimesLine,
  checkOpenFiles,
  checkPrerequisites,
  cpuBetween,
  cpuCells,
  cpuSnapshot,
  downloadShare,
  downloadShareLine,
  finish,
  fleetAppliedLine,
  fmt,
  followDispatch,
  followReceived,
  log,
  memoryLine,
  publicationSettings,
  sendAttempts,
  sendAttemptsLine,
  withClient,
  workerCountersLine,
} from './support/platform.mjs';
import { picture } from './support/pictures.mjs';

const env = process.env;
const settings = { screens: Number(env.SCREENS ?? 10_000), ...publicationSettings() };

/** Uploads a picture on the upload port as admin; answers the medium. */
async function upload(platform, file, name) {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([file], { type: 'image/png' }), `${name}.png`);
  return platform.upload('/api/led/mediaUpload', form);
}

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * One publication of a run: `none` is a brightness command to the region (the ledger, MQTT and the screens' acks, no
 * file at all); `small` and `large` save a task aimed at the region with that picture and publish it. Answers the
 * API's times and the dispatch.
 */
async function publish(platform, regionId, media, kind, run) {
  const started = performance.now();
  if (kind === 'none') {
    const sent = await platform.post('/api/led/ledBrightness', { regionId, brightness: 90 - run });
    if (sent.body?.code !== 200) throw new Error(`ledBrightness answered ${sent.status} ${JSON.stringify(sent.body)}`);
    return { taskId: null, dispatchId: sent.body.data.dispatchId, saveMs: 0, publishMs: performance.now() - started, started };
  }
  const saved = await platform.post('/api/led/taskAddOrEdit', {
    name: `Bench ${kind} ${run}`,
    mediaIds: [media[kind].id],
    playMode: 1,
    timePeriods: [{ start: '00:00', end: '00:00' }],
    taskPeriods: [{ startDate: day(-1), endDate: day(7) }],
    screenIds: [],
    regionIds: [regionId],
  });
  if (saved.body?.code !== 200) throw new Error(`taskAddOrEdit answered ${saved.status} ${JSON.stringify(saved.body)}`);
  const publishStarted = performance.now();
  const published = await platform.post('/api/led/taskPublish', { id: saved.body.data.id });
  if (published.body?.code !== 200) throw new Error(`taskPublish answered ${published.status} ${JSON.stringify(published.body)}`);
  return {
    taskId: saved.body.data.id,
    dispatchId: published.body.data.dispatchId,
    saveMs: publishStarted - started,
    publishMs: performance.now() - publishStarted,
    started: publishStarted,
  };
}

const KIND_LABEL = { none: 'no file (brightness)', small: 'tiny picture', large: 'large picture' };

async function main() {
  checkPrerequisites('led');
  checkOpenFiles(settings.screens + settings.downloadConcurrency + 1000, `${fmt(settings.screens)} screens`);
  const platform = new BenchPlatform('ledtask', { family: 'led' });
  const results = [];
  const missed = [];
  try {
    log(
      `LED task fan-out: ${fmt(settings.screens)} screens, ${settings.runs} run(s) of a brightness command and two tasks (a tiny picture, then ${fmt(settings.mediaKb)} kB), ` +
        `ack latency ${settings.ackLatency} ms, at most ${fmt(settings.downloadConcurrency)} downloads at once in the simulator`,
    );
    const { regionId, gateway, worker } = await platform.prepare(settings.screens, 'screens');
    const media = {
      small: await upload(platform, await picture(0), `Bench dot ${platform.codePrefix}`),
      large: await upload(platform, await picture(settings.mediaKb), `Bench noise ${platform.codePrefix}`),
    };
    log(`  media uploaded: ${fmt(media.small.fileSize)} bytes and ${fmt(media.large.fileSize)} bytes`);

    const fleet = await platform.startFleetOnline(
      settings.screens,
      ['--ack-latency', settings.ackLatency, '--download-concurrency', String(settings.downloadConcurrency)],
      { connectTimeoutSeconds: settings.connectTimeoutSeconds, missed, control: true },
    );

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    for (let run = 1; run <= settings.runs; run++) {
      for (const size of ['none', 'small', 'large']) {
        const before = cpuSnapshot(pids);
        const downloadsBefore = await platform.fleetDownloads();
        const sent = await publish(platform, regionId, media, size, run);
        const timeoutMs = settings.followTimeoutSeconds * 1000;
        const [followed, receivedMs] = await Promise.all([
          withClient(platform.databaseUrl, (c) => followDispatch(c, sent.dispatchId, settings.screens, sent.started, timeoutMs)),
          size === 'large'
            ? withClient(platform.databaseUrl, (c) => followReceived(c, sent.dispatchId, settings.screens, sent.started, timeoutMs))
            : null,
        ]);
        const cpu = cpuBetween(before, cpuSnapshot(pids));
        const downloadsAfter = await platform.fleetDownloads();
        const seconds = followed.marks.allTerminal === null ? NaN : followed.marks.allTerminal / 1000;
        const downloads = downloadShare(downloadsBefore, downloadsAfter, seconds, {
          label: `run ${run} (${KIND_LABEL[size]})`,
          concurrency: settings.downloadConcurrency,
          targetOverSeconds: settings.targetOverDownloadSeconds,
          missed,
        });
        const result = {
          run,
          size,
          bytes: media[size]?.fileSize ?? 0,
          ...sent,
          ...followed,
          seconds,
          downloads,
          receivedMs,
          rate: settings.screens / seconds,
          cpu,
        };
        results.push(result);
        const c = followed.counts;
        log(
          `  run ${run}, ${KIND_LABEL[size]}${sent.taskId ? ` (task ${sent.taskId})` : ''}: saved in ${sent.saveMs.toFixed(0)} ms, published in ${sent.publishMs.toFixed(0)} ms, ` +
            `all sent ${fmt(followed.marks.allSent)} ms, ` +
            (receivedMs === null ? '' : `all received ${(receivedMs / 1000).toFixed(2)} s, `) +
            `all terminal ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : `NOT within ${settings.followTimeoutSeconds} s`} → ${fmt(result.rate)} rows/s; ` +
            `delivered ${c.delivered ?? 0}, failed ${c.failed ?? 0}, expired ${c.expired ?? 0}, still open ${(c.queued ?? 0) + (c.sent ?? 0)}; batch ${followed.dispatch.status}`,
        );
        log(downloadShareLine(downloads));
        if (settings.targetSeconds !== null && !(seconds <= settings.targetSeconds))
          missed.push(
            `run ${run} (${KIND_LABEL[size]}): ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'not terminal'} is over ${settings.targetSeconds} s`,
          );
        if ((c.delivered ?? 0) !== settings.screens)
          missed.push(`run ${run} (${KIND_LABEL[size]}): ${c.delivered ?? 0} of ${settings.screens} delivered`);
      }
    }

    const memory = platform.memory();
    const health = await platform.workerHealth();
    const fleetStats = await platform.stopFleet();
    const attempts = await sendAttempts(platform.databaseUrl);

    log('');
    log(
      `  | run | file | save ms | publish ms | all sent ms | all received s | all terminal s | download time s | past download s | rows/s | delivered | gateway CPU | worker CPU | simulator CPU | PostgreSQL CPU | Mosquitto CPU |`,
    );
    for (const r of results) {
      log(
        `  | ${r.run} | ${KIND_LABEL[r.size]}, ${fmt(r.bytes)} B | ${r.saveMs.toFixed(0)} | ${r.publishMs.toFixed(0)} | ${fmt(r.marks.allSent)} | ${r.receivedMs === null ? '–' : (r.receivedMs / 1000).toFixed(2)} | ` +
          `${r.seconds.toFixed(2)} | ${r.downloads.downloadSeconds.toFixed(2)} | ${r.downloads.overSeconds.toFixed(2)} | ${fmt(r.rate)} | ${r.counts.delivered ?? 0} | ` +
          cpuCells(r.cpu),
      );
    }
    log('');
    log(sendAttemptsLine(attempts));
    for (const r of results) {
      const line = await ackTimesLine(platform.databaseUrl, {
        dispatchId: r.dispatchId,
        label: `run ${r.run}, ${KIND_LABEL[r.size]}, send → stored ack`,
      });
      if (line) log(line);
    }
    const delivered = results.reduce((n, r) => n + (r.counts.delivered ?? 0), 0);
    log(fleetAppliedLine(fleetStats, { noun: 'screen', what: 'command', sent: settings.runs * 3, devices: settings.screens, delivered, missed }));
    log(workerCountersLine(health.counters));
    log(memoryLine(memory));
    platform.checkErrors(missed);
    finish(missed, `Every command and task delivered to and applied once by all ${fmt(settings.screens)} screens`);
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    await platform.cleanup();
  }
}

await main();
