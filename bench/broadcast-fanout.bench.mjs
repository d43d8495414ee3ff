// Broadcast fan-out: an immediate broadcast to TERMINALS simulated broadcast terminals (10,000) through the real API,
// until every dispatch row is terminal (target 10 s), and, as a second figure, until every terminal has downloaded
// the MP3 from the gateway's signed link and reported the download done.
//
//   npx nest build gateway && npx nest build worker-broadcast && npx nest build device-sim
//   npm run bench:broadcast-fanout                 # TERMINALS=1000 RUNS=1 for a short run
//
// It creates a database of its own (sc_bench_bfanout_<hex>), migrates it and loads the demo data with the built
// gateway, adds the terminals with SQL (codes B<HEX>-00001 …, in a region of their own; the demo's terminals are
// removed), starts the gateway, the broadcast worker and the device simulator (`--family broadcast`: every terminal
// on an MQTT connection of its own, as on the street) as separate processes with this run's REDIS_PREFIX and intake
// group, makes a short MP3 with ffmpeg, uploads it on the upload port and approves it as admin, waits until every
// terminal reported online, then sends RUNS immediate broadcasts one after another (POST
// /api/broadcast/immediateBroadcast {regionId, mediaIds}) and polls the dispatch's tally every 100 ms until all rows
// are terminal, and the terminals' stored download reports every 250 ms until every one is done. Between runs it
// waits until every terminal has played the MP3 and is idle again. It checks that every terminal applied each task
// exactly once (the simulator's applied commands per terminal), prints CPU and memory of each process, and removes
// everything it made (database, Redis keys, retained MQTT messages, upload directory).
// Exit 1 when a target is missed, 2 when it could not run. See docs/benchmarks.md.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  BenchPlatform,
  ackTimesLine,
  checkOpenFiles,
  checkPrerequisites,
  cpuBetween,
  cpuCells,
  cpuSnapshot,
  fail,
  finish,
  fleetAppliedLine,
  fmt,
  followDispatch,
  log,
  logAmbientLoad,
  memoryLine,
  processMemory,
  sendAttempts,
  sendAttemptsLine,
  withClient,
  workerCountersLine,
} from './support/platform.mjs';

const env = process.env;
const settings = {
  terminals: Number(env.TERMINALS ?? 10_000),
  runs: Number(env.RUNS ?? 2),
  targetSeconds: Number(env.TARGET_SECONDS ?? 10),
  ackLatency: env.ACK_LATENCY ?? '50-300',
  mediaSeconds: Number(env.MEDIA_SECONDS ?? 10),
  mediaKbps: Number(env.MEDIA_KBPS ?? 32),
  /** Downloads the simulator runs at once (one process plays every terminal; real ones each have their own host). */
  // 100: at 1,000 the simulator's own event loop, busy with the downloads, held the terminals' acks past the ack
  // time-out (docs/benchmarks.md); each real terminal downloads on a host of its own.
  downloadConcurrency: Number(env.DOWNLOAD_CONCURRENCY ?? 100),
  downloadTimeoutSeconds: Number(env.DOWNLOAD_TIMEOUT_SECONDS ?? 120),
  connectTimeoutSeconds: Number(env.CONNECT_TIMEOUT_SECONDS ?? 300),
};

/** A sine tone as a constant-bitrate MP3, made by Debian's ffmpeg (as libs/testing's mp3Tone makes them for tests). */
async function mp3Tone(seconds, kbps) {
  const dir = await mkdtemp(join(tmpdir(), 'sc-bench-audio-'));
  try {
    const out = join(dir, 'tone.mp3');
    await promisify(execFile)('ffmpeg', [
      ...['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', `sine=frequency=660:duration=${seconds}:sample_rate=44100`],
      ...['-ac', '1', '-codec:a', 'libmp3lame', '-b:a', `${kbps}k`, out],
    ]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Uploads the MP3 on the upload port and approves it, as admin; answers the medium. */
async function uploadApproved(platform, file) {
  const form = new FormData();
  form.append('materialName', `Bench tone ${platform.codePrefix}`);
  form.append('file', new Blob([file], { type: 'audio/mpeg' }), 'bench-tone.mp3');
  const medium = await platform.upload('/api/broadcast/mediaUpload', form);
  const audit = await platform.post('/api/broadcast/mediaAudit', { id: medium.id, auditStatus: 'approved' });
  if (audit.body?.code !== 200) throw new Error(`mediaAudit answered ${audit.status} ${JSON.stringify(audit.body)}`);
  return medium;
}

/** Counts this run's terminals by a condition on `t` (broadcast_terminal). */
async function countTerminals(client, platform, condition, params = []) {
  const { rows } = await client.query(
    `SELECT count(*)::int AS n FROM broadcast_terminal t JOIN device d ON d.id = t.device_id WHERE d.code LIKE $1 AND ${condition}`,
    [`${platform.codePrefix}%`, ...params],
  );
  return rows[0].n;
}

/**
 * Polls the terminals' stored download reports every 250 ms until every terminal has reported the task's download
 * done or failed (ms from `started`), or the time-out.
 */
async function followDownloads(client, platform, taskId, total, started, timeoutMs) {
  let done = 0;
  let failed = 0;
  while (performance.now() < started + timeoutMs) {
    const { rows } = await client.query(
      `SELECT count(*) FILTER (WHERE (t.download->>'done')::boolean)::int AS done,
              count(*) FILTER (WHERE t.download->>'error' IS NOT NULL)::int AS failed
         FROM broadcast_terminal t JOIN device d ON d.id = t.device_id
        WHERE d.code LIKE $1 AND t.download->>'taskId' = $2`,
      [`${platform.codePrefix}%`, taskId],
    );
    ({ done, failed } = rows[0]);
    if (done + failed >= total) return { done, failed, ms: performance.now() - started };
    await sleep(250);
  }
  return { done, failed, ms: null };
}

async function main() {
  checkPrerequisites('broadcast');
  checkOpenFiles(settings.terminals + settings.downloadConcurrency + 1000, `${fmt(settings.terminals)} terminals`);
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  } catch {
    fail('ffmpeg is needed to make the MP3 (Debian: apt-get install ffmpeg; the gateway checks uploads with its ffprobe).');
  }
  const platform = new BenchPlatform('bfanout', { family: 'broadcast' });
  const results = [];
  const missed = [];
  try {
    log(
      `Broadcast fan-out: ${fmt(settings.terminals)} terminals, ${settings.runs} immediate broadcast(s) of a ${settings.mediaSeconds} s MP3, ` +
        `ack latency ${settings.ackLatency} ms, at most ${fmt(settings.downloadConcurrency)} downloads at once in the simulator`,
    );
    const { regionId, gateway, worker } = await platform.prepare(settings.terminals, 'terminals');
    const medium = await uploadApproved(platform, await mp3Tone(settings.mediaSeconds, settings.mediaKbps));
    log(`  medium ${medium.id} uploaded and approved: ${fmt(medium.fileSize)} bytes, ${medium.duration} s`);

    let t = performance.now();
    const fleet = await platform.startFleet(
      settings.terminals,
      ['--ack-latency', settings.ackLatency, '--download-concurrency', String(settings.downloadConcurrency)],
      { timeoutMs: settings.connectTimeoutSeconds * 1000 },
    );
    const connectedS = (performance.now() - t) / 1000;
    const online = await platform.waitOnline(settings.terminals, 120_000);
    const startHealth = await platform.workerHealth();
    const startMemory = processMemory(fleet.pid);
    log(
      `  simulator pid ${fleet.pid}: ${fmt(settings.terminals)} terminals connected (one MQTT connection each) in ${connectedS.toFixed(1)} s, ` +
        `simulator RSS ${startMemory.rssMb.toFixed(0)} MB; ${fmt(online)} online in the database after ${((performance.now() - t) / 1000).toFixed(1)} s` +
        (online < settings.terminals
          ? ` (the other start-up states never reached the worker: worker received ${fmt(startHealth.counters.received)} messages)`
          : ''),
    );
    if (online < settings.terminals) missed.push(`start-up: only ${fmt(online)} of ${fmt(settings.terminals)} terminals online`);
    await logAmbientLoad();

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    for (let run = 1; run <= settings.runs; run++) {
      const before = cpuSnapshot(pids);
      const started = performance.now();
      const answer = await platform.post('/api/broadcast/immediateBroadcast', {
        taskName: `Bench broadcast ${run}`,
        mediaIds: [medium.id],
        regionId,
        priority: 1,
        volume: 60,
      });
      const apiMs = performance.now() - started;
      if (answer.body?.code !== 200) throw new Error(`immediateBroadcast answered ${answer.status} ${JSON.stringify(answer.body)}`);
      const { id: taskId, dispatchId } = answer.body.data;
      const [followed, downloads] = await Promise.all([
        withClient(platform.databaseUrl, (c) => followDispatch(c, dispatchId, settings.terminals, started)),
        withClient(platform.databaseUrl, (c) =>
          followDownloads(c, platform, `task-${taskId}`, settings.terminals, started, settings.downloadTimeoutSeconds * 1000),
        ),
      ]);
      const cpu = cpuBetween(before, cpuSnapshot(pids));
      const seconds = followed.marks.allTerminal === null ? NaN : followed.marks.allTerminal / 1000;
      const downloadSeconds = downloads.ms === null ? NaN : downloads.ms / 1000;
      const result = { run, taskId, dispatchId, apiMs, ...followed, seconds, downloads, downloadSeconds, rate: settings.terminals / seconds, cpu };
      results.push(result);
      const c = followed.counts;
      log(
        `  run ${run} (task ${taskId}): API answered in ${apiMs.toFixed(0)} ms, first sent ${fmt(followed.marks.firstSent)} ms, all sent ${fmt(followed.marks.allSent)} ms, ` +
          `all terminal ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'NOT within 75 s'} → ${fmt(result.rate)} commands/s; ` +
          `delivered ${c.delivered ?? 0}, failed ${c.failed ?? 0}, expired ${c.expired ?? 0}, still open ${(c.queued ?? 0) + (c.sent ?? 0)}; batch ${followed.dispatch.status}; ` +
          `downloads done ${fmt(downloads.done)}, failed ${fmt(downloads.failed)}${Number.isFinite(downloadSeconds) ? `, all reported after ${downloadSeconds.toFixed(2)} s` : `, NOT all within ${settings.downloadTimeoutSeconds} s`}`,
      );
      if (!(seconds <= settings.targetSeconds))
        missed.push(`run ${run}: ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'not terminal'} is over ${settings.targetSeconds} s`);
      if ((c.delivered ?? 0) !== settings.terminals) missed.push(`run ${run}: ${c.delivered ?? 0} of ${settings.terminals} delivered`);
      if (downloads.done !== settings.terminals)
        missed.push(
          `run ${run}: ${fmt(downloads.done)} of ${fmt(settings.terminals)} terminals reported the download done (${fmt(downloads.failed)} failed)`,
        );
      // The terminals play the MP3, then are idle again: wait for that before the next run (and the counters).
      const idleBy = performance.now() + (settings.mediaSeconds + 30) * 1000;
      let busy = settings.terminals;
      while (performance.now() < idleBy) {
        busy = await withClient(platform.databaseUrl, (client) => countTerminals(client, platform, `t.occupancy <> 'idle'`));
        if (busy === 0) break;
        await sleep(500);
      }
      if (busy > 0) log(`  ${fmt(busy)} terminal(s) still busy ${settings.mediaSeconds + 30} s after run ${run}`);
    }

    const memory = platform.memory();
    const health = await platform.workerHealth();
    const fleetStats = await platform.stopFleet();
    const attempts = await sendAttempts(platform.databaseUrl);
    const ackTimes = await ackTimesLine(platform.databaseUrl);

    log('');
    log(
      `  | run | API ms | all sent ms | all terminal s | commands/s | delivered | all downloads done s | gateway CPU | worker CPU | simulator CPU | PostgreSQL CPU | Mosquitto CPU |`,
    );
    for (const r of results) {
      log(
        `  | ${r.run} | ${r.apiMs.toFixed(0)} | ${fmt(r.marks.allSent)} | ${r.seconds.toFixed(2)} | ${fmt(r.rate)} | ${r.counts.delivered ?? 0} | ${r.downloadSeconds.toFixed(2)} | ` +
          cpuCells(r.cpu),
      );
    }
    log('');
    log(sendAttemptsLine(attempts));
    if (ackTimes) log(ackTimes);
    const delivered = results.reduce((n, r) => n + (r.counts.delivered ?? 0), 0);
    log(fleetAppliedLine(fleetStats, { noun: 'terminal', sent: settings.runs, devices: settings.terminals, delivered, missed }));
    log(workerCountersLine(health.counters));
    log(memoryLine(memory));
    const resent = attempts.filter((a) => a.attempts > 1).reduce((n, a) => n + a.n, 0);
    if (resent > 0) missed.push(`${fmt(resent)} row(s) needed a re-send (their acks were not stored within the ack time-out)`);
    platform.checkErrors(missed);
    finish(
      missed,
      `Target met: every run terminal within ${settings.targetSeconds} s, every task delivered, downloaded and applied once per terminal`,
    );
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    await platform.cleanup();
  }
}

await main();
