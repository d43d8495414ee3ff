// Ad plan publication to floor screens: an ad plan for a group of PLAYERS simulated floor-screen players (10,000),
// published through the real API until every ledger row is terminal, and how fast each player's receive status
// reaches the console: from the player's receipt or ack leaving the broker (as the signage worker hears it) to the
// gateway's DispatchRowsChanged arriving at a socket.io client that watches the floor screens' rows, as the plan's
// receive-status page does. Each run publishes two plans one after another: one whose ad shows a picture of about a
// hundred bytes (the fan-out: the ledger, MQTT, the receipts and acks, and one signed HTTP fetch per player next to
// nothing), and one whose ad shows a picture of MEDIA_KB (100 kB) that every player fetches from the gateway's signed
// link and checks before it acks (with the download; MEDIA_KB=0 leaves it out).
//
//   npx nest build gateway && npx nest build worker-signage && npx nest build device-sim
//   npm run bench:signage-publish                  # PLAYERS=500 for a short run
//
// It creates a database of its own (sc_bench_signpub_<hex>), migrates it and loads the demo data with the built
// gateway, adds the players with SQL (codes B<HEX>-00001 …, floor-screen records in a region of their own; the demo's
// players are removed), starts the gateway, puts the players in a group made through the API, starts the signage
// worker and the device simulator (`--family signage`: every player on an MQTT connection of its own) as separate
// processes with this run's REDIS_PREFIX and intake group, makes the two pictures with sharp, uploads them as
// materials on the upload port and makes an ad of each (no audit), as admin. Once every player reported online, each
// of RUNS runs saves a plan for the group with one ad (POST /api/signage/plan/add) and publishes it (POST
// /api/signage/plan/publish), the small picture's, then the large one's; the plans play from the day after tomorrow,
// so the players hold them without playing them (no proof of play during the measurement). The dispatch's tally is
// polled every 100 ms until all rows are terminal, its rows every 250 ms until every player has sent a receipt. A
// socket.io client watches DispatchRowsChanged of the floor screens from the start; a plain MQTT subscriber (the
// signage worker's account) hears the acks channel of PUSH_SAMPLE players spread over the group (500): for each
// receipt and ack of theirs, the push latency is the time from its arrival there to the first socket frame showing
// that player's row at that step or beyond. For every row, the time from its step being stored (the ledger's own
// time) to the socket is given too. It checks that every player applied each plan exactly once and that every
// player's delivery reached the socket, prints CPU and memory of each process, and removes everything it made
// (database, Redis keys, retained MQTT messages, upload directory). Exit 1 when a check fails (or TARGET_SECONDS /
// TARGET_P99_MS is given and missed), 2 when it could not run. See docs/benchmarks.md.
import { setTimeout as sleep } from 'node:timers/promises';
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
  percentile,
  publicationSettings,
  sendAttempts,
  sendAttemptsLine,
  withClient,
  workerCountersLine,
} from './support/platform.mjs';
import { picture } from './support/pictures.mjs';

const env = process.env;
const settings = {
  players: Number(env.PLAYERS ?? 10_000),
  ...publicationSettings(),
  /** Optional: the push latency's p99 of every publication under this many ms (no target unless given). */
  targetP99Ms: env.TARGET_P99_MS === undefined ? null : Number(env.TARGET_P99_MS),
  /** Players whose receipts and acks are timed (evenly spread over the group). */
  pushSample: Number(env.PUSH_SAMPLE ?? 500),
};

const TERMINAL = new Set(['delivered', 'failed', 'expired']);

/**
 * How far a ledger row has got, as a number that only grows: 0 nothing heard, 1 received, 2 to 3 downloading (by the
 * bytes in), 4 terminal. A receipt or an ack is shown once a pushed row of its player is at its step or beyond.
 */
function stepOf(state, receipt) {
  if (TERMINAL.has(state)) return 4;
  if (receipt?.stage === 'downloading') return 2 + (receipt.total > 0 ? Math.min(receipt.received ?? 0, receipt.total) / receipt.total : 0) * 0.999;
  return receipt?.stage === 'received' ? 1 : 0;
}

/** A receipt or an ack on a player's `ack` channel as its step (stepOf), or null for anything else. */
function messageStep(payload) {
  try {
    const body = JSON.parse(payload.toString());
    if (typeof body?.id !== 'string') return null;
    if (body.receipt) return { commandId: body.id, kind: 'receipt', step: stepOf('sent', body.receipt) };
    if (typeof body.ok === 'boolean') return { commandId: body.id, kind: 'ack', step: 4 };
  } catch {
    // not a message of the contract
  }
  return null;
}

/**
 * What the console sees of the publications: every DispatchRowsChanged frame of the dispatch being followed, per player
 * (arrival and step), the time from each step being stored to its arrival, and the receipts and acks of the sampled
 * players as the broker handed them out. Between expect() and follow(dispatchId) (the API has not answered yet) frames
 * are held, then taken in.
 */
function pushTracker() {
  const tracker = {
    dispatchId: null,
    held: null,
    /** deviceId → [{ at, step }] in arrival order, of the followed dispatch. */
    frames: new Map(),
    /** ms from a row's step being stored (its receipt's or its row's time) to the socket, once per step and player. */
    storedToSocket: [],
    seenStored: new Set(),
    /** ms from the worker announcing a frame (its `at`, once the moved rows were read) to its arrival, per frame. */
    announcedToSocket: [],
    /** Players whose row was pushed terminal. */
    terminal: new Set(),
    otherFrames: 0,
    /** Every receipt and ack of the sampled players: { code, commandId, kind, step, at }. */
    messages: [],
    expect() {
      Object.assign(tracker, {
        dispatchId: null,
        held: [],
        frames: new Map(),
        storedToSocket: [],
        seenStored: new Set(),
        announcedToSocket: [],
        terminal: new Set(),
        messages: [],
      });
    },
    follow(dispatchId) {
      const held = tracker.held ?? [];
      Object.assign(tracker, { dispatchId, held: null });
      for (const [frame, at] of held) take(frame, at);
    },
    onFrame(frame, at) {
      if (tracker.held) tracker.held.push([frame, at]);
      else take(frame, at);
    },
    onMessage(code, payload, at) {
      const message = messageStep(payload);
      if (message) tracker.messages.push({ code, at, ...message });
    },
  };
  const take = (frame, at) => {
    if (frame.dispatchId !== tracker.dispatchId) {
      tracker.otherFrames++;
      return;
    }
    tracker.announcedToSocket.push(at - Date.parse(frame.at));
    for (const row of frame.rows) {
      const step = stepOf(row.state, row.receipt);
      let list = tracker.frames.get(row.deviceId);
      if (!list) tracker.frames.set(row.deviceId, (list = []));
      const storedAt = step === 4 ? row.updatedAt : row.receipt?.at;
      list.push({ at, step, storedAt });
      const key = `${row.deviceId} ${storedAt}`;
      if (storedAt && !tracker.seenStored.has(key)) {
        tracker.seenStored.add(key);
        tracker.storedToSocket.push(at - Date.parse(storedAt));
      }
      if (step === 4) tracker.terminal.add(row.deviceId);
    }
  };
  return tracker;
}

/**
 * The push latencies of the followed dispatch's sampled receipts and acks (`commands`: its command ids by code): each
 * from its arrival at the subscriber to the first frame after it showing its player's row at its step or beyond.
 * Answers the sorted latencies (all, receipts, acks) and how many were shown before the subscriber heard them (an ack
 * overtaking its receipt) or never.
 */
function pushLatencies(tracker, commands, idOf) {
  const all = [];
  const byKind = { receipt: [], ack: [] };
  /** From the subscriber hearing the message to its step being stored (the ledger's time; same machine's clock). */
  const heardToStored = [];
  let before = 0;
  let never = 0;
  for (const m of tracker.messages) {
    if (commands.get(m.code) !== m.commandId) continue;
    const frames = tracker.frames.get(idOf.get(m.code)) ?? [];
    const shown = frames.find((f) => f.step >= m.step && f.at >= m.at);
    if (shown) {
      all.push(shown.at - m.at);
      byKind[m.kind].push(shown.at - m.at);
      if (shown.storedAt && Math.floor(shown.step) === Math.floor(m.step)) heardToStored.push(Date.parse(shown.storedAt) - m.at);
    } else if (frames.some((f) => f.step >= m.step)) before++;
    else never++;
  }
  const sort = (xs) => xs.sort((a, b) => a - b);
  return { all: sort(all), receipts: sort(byKind.receipt), acks: sort(byKind.ack), heardToStored: sort(heardToStored), before, never };
}

const spread = (sorted) =>
  sorted.length === 0
    ? 'none'
    : `p50 ${fmt(percentile(sorted, 50))} ms, p90 ${fmt(percentile(sorted, 90))} ms, p99 ${fmt(percentile(sorted, 99))} ms, max ${fmt(sorted.at(-1))} ms`;

/** Uploads a picture as a floor-screen material and makes an ad of it (no audit), as admin; answers both. */
async function adOf(platform, file, name) {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([file], { type: 'image/png' }), `${name}.png`);
  const material = await platform.upload('/api/signage/material/upload', form);
  const ad = await platform.post('/api/signage/ad/add', {
    name,
    coverMaterialId: material.id,
    orientation: '9:16',
    totalDuration: 10,
    splitCount: 1,
    zones: [[{ materialId: material.id, seconds: 10 }]],
    music: [],
    auditRequired: false,
  });
  if (ad.body?.code !== 200) throw new Error(`ad/add answered ${ad.status} ${JSON.stringify(ad.body)}`);
  return { material, adId: ad.body.data.id };
}

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Saves a plan for the group with the ad and publishes it; answers the API's times and the dispatch. */
async function publish(platform, groupId, adId, name) {
  const started = performance.now();
  // From the day after tomorrow (UTC, so on any clock of the installation): held, not played, while measured.
  const saved = await platform.post('/api/signage/plan/add', {
    publishName: name,
    publishMode: 'group',
    groupId,
    adIds: [adId],
    schedule: { startDate: day(2), endDate: day(9), allDay: true, weekdays: [] },
    playMode: 'normalLoop',
    publishType: 'replace',
  });
  if (saved.body?.code !== 200) throw new Error(`plan/add answered ${saved.status} ${JSON.stringify(saved.body)}`);
  const publishStarted = performance.now();
  const published = await platform.post('/api/signage/plan/publish', { id: saved.body.data.id });
  if (published.body?.code !== 200) throw new Error(`plan/publish answered ${published.status} ${JSON.stringify(published.body)}`);
  return {
    planId: saved.body.data.id,
    dispatchId: published.body.data.dispatchId,
    saveMs: publishStarted - started,
    publishMs: performance.now() - publishStarted,
    started: publishStarted,
  };
}

/** Waits (at most `ms`) until every player's terminal row has reached the socket. */
async function settlePushes(tracker, total, ms) {
  const until = performance.now() + ms;
  while (tracker.terminal.size < total && performance.now() < until) await sleep(100);
}

const KIND_LABEL = { small: 'tiny picture', large: 'large picture' };

async function main() {
  checkPrerequisites('signage');
  checkOpenFiles(settings.players + settings.downloadConcurrency + 1000, `${fmt(settings.players)} players`);
  const platform = new BenchPlatform('signpub', { family: 'signage' });
  const results = [];
  const missed = [];
  const tracker = pushTracker();
  let socket = null;
  let probe = null;
  try {
    const kinds = settings.mediaKb > 0 ? ['small', 'large'] : ['small'];
    log(
      `Ad plan publication: ${fmt(settings.players)} floor-screen players, ${settings.runs} run(s) of ${kinds.length} plan(s) (a tiny picture` +
        `${settings.mediaKb > 0 ? `, then ${fmt(settings.mediaKb)} kB` : ''}), ack latency ${settings.ackLatency} ms, ` +
        `at most ${fmt(settings.downloadConcurrency)} downloads at once in the simulator, push latency timed on ${fmt(Math.min(settings.pushSample, settings.players))} players`,
    );
    const t = performance.now();
    await platform.createDatabase();
    await platform.addDevices(settings.players);
    log(
      `  ${platform.dbName} ready with ${fmt(settings.players)} players (${platform.code(1)} …) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const gateway = await platform.startGateway();
    const group = await platform.post('/api/signage/groupAddOrEdit', { name: `Bench ${platform.codePrefix}` });
    if (group.body?.code !== 200) throw new Error(`groupAddOrEdit answered ${group.status} ${JSON.stringify(group.body)}`);
    const groupId = group.body.data.id;
    const idOf = await withClient(platform.databaseUrl, async (c) => {
      await c.query(`UPDATE signage_device SET group_id = $1 WHERE code LIKE $2`, [groupId, `${platform.codePrefix}%`]);
      const { rows } = await c.query(`SELECT id, code FROM signage_device WHERE code LIKE $1`, [`${platform.codePrefix}%`]);
      return new Map(rows.map((r) => [r.code, r.id]));
    });
    const worker = await platform.startWorker();
    log(`  gateway pid ${gateway.pid} on ${platform.baseUrl}, worker pid ${worker.pid}, Redis prefix ${platform.redisPrefix}; group ${groupId}`);
    const ads = {
      small: await adOf(platform, await picture(0), `Bench dot ${platform.codePrefix}`),
      ...(settings.mediaKb > 0 ? { large: await adOf(platform, await picture(settings.mediaKb), `Bench noise ${platform.codePrefix}`) } : {}),
    };
    log(`  materials uploaded and ads made: ${kinds.map((k) => `${fmt(ads[k].material.fileSize)} bytes`).join(' and ')}`);

    socket = await platform.watchFeed('DispatchRowsChanged', tracker.onFrame);
    const sampled = Math.min(settings.pushSample, settings.players);
    const sampleCodes = Array.from({ length: sampled }, (_, i) => platform.code(1 + Math.floor(((i + 0.5) * settings.players) / sampled)));
    probe = await platform.subscribeDevices('worker-signage', sampleCodes, 'ack', tracker.onMessage);

    const fleet = await platform.startFleetOnline(
      settings.players,
      ['--ack-latency', settings.ackLatency, '--download-concurrency', String(settings.downloadConcurrency)],
      { connectTimeoutSeconds: settings.connectTimeoutSeconds, missed, control: true },
    );

    const pids = { gateway: gateway.pid, worker: worker.pid, fleet: fleet.pid };
    for (let run = 1; run <= settings.runs; run++) {
      for (const kind of kinds) {
        const before = cpuSnapshot(pids);
        const downloadsBefore = await platform.fleetDownloads();
        // The dispatch is known once the API answers: frames that come before are held until then.
        tracker.expect();
        const sent = await publish(platform, groupId, ads[kind].adId, `Bench ${KIND_LABEL[kind]} ${run}`);
        tracker.follow(sent.dispatchId);
        const timeoutMs = settings.followTimeoutSeconds * 1000;
        const [followed, receivedMs] = await Promise.all([
          withClient(platform.databaseUrl, (c) => followDispatch(c, sent.dispatchId, settings.players, sent.started, timeoutMs)),
          withClient(platform.databaseUrl, (c) => followReceived(c, sent.dispatchId, settings.players, sent.started, timeoutMs)),
        ]);
        const cpu = cpuBetween(before, cpuSnapshot(pids));
        const downloadsAfter = await platform.fleetDownloads();
        await settlePushes(tracker, settings.players, 5000);
        const commands = await withClient(platform.databaseUrl, async (c) => {
          const { rows } = await c.query(
            `SELECT s.code, i.command_id AS "commandId" FROM dispatch_item i JOIN signage_device s ON s.id = i.device_id
              WHERE i.dispatch_id = $1 AND s.code = ANY($2::text[])`,
            [sent.dispatchId, sampleCodes],
          );
          return new Map(rows.map((r) => [r.code, r.commandId]));
        });
        const push = pushLatencies(tracker, commands, idOf);
        const stored = tracker.storedToSocket.sort((a, b) => a - b);
        const announced = tracker.announcedToSocket.sort((a, b) => a - b);
        const seconds = followed.marks.allTerminal === null ? NaN : followed.marks.allTerminal / 1000;
        const downloads = downloadShare(downloadsBefore, downloadsAfter, seconds, {
          label: `run ${run} (${KIND_LABEL[kind]})`,
          concurrency: settings.downloadConcurrency,
          targetOverSeconds: settings.targetOverDownloadSeconds,
          missed,
        });
        const result = {
          run,
          kind,
          bytes: ads[kind].material.fileSize,
          ...sent,
          ...followed,
          seconds,
          downloads,
          receivedMs,
          rate: settings.players / seconds,
          push,
          stored,
          pushedTerminal: tracker.terminal.size,
          cpu,
        };
        results.push(result);
        const c = followed.counts;
        log(
          `  run ${run}, ${KIND_LABEL[kind]} (plan ${sent.planId}): saved in ${sent.saveMs.toFixed(0)} ms, published in ${sent.publishMs.toFixed(0)} ms, ` +
            `all sent ${fmt(followed.marks.allSent)} ms, ` +
            (receivedMs === null ? 'NOT all received, ' : `all received ${(receivedMs / 1000).toFixed(2)} s, `) +
            `all terminal ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : `NOT within ${settings.followTimeoutSeconds} s`} → ${fmt(result.rate)} rows/s; ` +
            `delivered ${c.delivered ?? 0}, failed ${c.failed ?? 0}, expired ${c.expired ?? 0}, still open ${(c.queued ?? 0) + (c.sent ?? 0)}; batch ${followed.dispatch.status}`,
        );
        log(downloadShareLine(downloads));
        log(
          `    push, broker → socket: ${fmt(push.all.length)} receipts and acks of ${fmt(commands.size)} players timed: ${spread(push.all)} ` +
            `(receipts ${spread(push.receipts)}; acks ${spread(push.acks)}); ${fmt(push.before)} shown before heard, ${fmt(push.never)} never shown; ` +
            `of which broker → stored: ${spread(push.heardToStored)}`,
        );
        log(
          `    push, stored → socket, every row: ${fmt(stored.length)} steps, ${spread(stored)}; announced by the worker → socket: ${fmt(announced.length)} frames, ` +
            `${spread(announced)}; ${fmt(result.pushedTerminal)} of ${fmt(settings.players)} deliveries pushed`,
        );
        const label = `run ${run} (${KIND_LABEL[kind]})`;
        if (settings.targetSeconds !== null && !(seconds <= settings.targetSeconds))
          missed.push(`${label}: ${Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'not terminal'} is over ${settings.targetSeconds} s`);
        if (settings.targetP99Ms !== null && !(percentile(push.all, 99) <= settings.targetP99Ms))
          missed.push(`${label}: push p99 ${fmt(percentile(push.all, 99))} ms is over ${settings.targetP99Ms} ms`);
        if ((c.delivered ?? 0) !== settings.players) missed.push(`${label}: ${c.delivered ?? 0} of ${settings.players} delivered`);
        if (result.pushedTerminal !== settings.players)
          missed.push(`${label}: only ${fmt(result.pushedTerminal)} of ${fmt(settings.players)} players' rows reached the socket terminal`);
        if (push.never > 0) missed.push(`${label}: ${fmt(push.never)} sampled receipt(s) or ack(s) never shown on the socket`);
      }
    }

    const memory = platform.memory();
    const health = await platform.workerHealth();
    const fleetStats = await platform.stopFleet();
    const attempts = await sendAttempts(platform.databaseUrl);

    log('');
    log(
      `  | run | material | save ms | publish ms | all sent ms | all received s | all terminal s | download time s | past download s | rows/s | delivered | push p50 / p99 ms (timed) | stored → socket p50 / p99 ms | gateway CPU | worker CPU | simulator CPU | PostgreSQL CPU | Mosquitto CPU |`,
    );
    for (const r of results) {
      log(
        `  | ${r.run} | ${KIND_LABEL[r.kind]}, ${fmt(r.bytes)} B | ${r.saveMs.toFixed(0)} | ${r.publishMs.toFixed(0)} | ${fmt(r.marks.allSent)} | ` +
          `${r.receivedMs === null ? '–' : (r.receivedMs / 1000).toFixed(2)} | ${r.seconds.toFixed(2)} | ${r.downloads.downloadSeconds.toFixed(2)} | ${r.downloads.overSeconds.toFixed(2)} | ${fmt(r.rate)} | ${r.counts.delivered ?? 0} | ` +
          `${fmt(percentile(r.push.all, 50))} / ${fmt(percentile(r.push.all, 99))} (${fmt(r.push.all.length)}) | ${fmt(percentile(r.stored, 50))} / ${fmt(percentile(r.stored, 99))} | ` +
          cpuCells(r.cpu),
      );
    }
    log('');
    log(sendAttemptsLine(attempts));
    for (const r of results) {
      const line = await ackTimesLine(platform.databaseUrl, {
        dispatchId: r.dispatchId,
        label: `run ${r.run}, ${KIND_LABEL[r.kind]}, send → stored ack`,
      });
      if (line) log(line);
    }
    if (tracker.otherFrames > 0) log(`  ${fmt(tracker.otherFrames)} frame(s) of other dispatches on the socket`);
    const delivered = results.reduce((n, r) => n + (r.counts.delivered ?? 0), 0);
    log(
      fleetAppliedLine(fleetStats, {
        noun: 'player',
        what: 'plan',
        sent: settings.runs * kinds.length,
        devices: settings.players,
        delivered,
        missed,
      }),
    );
    log(workerCountersLine(health.counters));
    log(memoryLine(memory));
    platform.checkErrors(missed);
    finish(missed, `Every plan delivered to and applied once by all ${fmt(settings.players)} players, every delivery pushed to the socket`);
  } catch (err) {
    platform.reportFailure(err);
  } finally {
    socket?.close();
    await probe?.endAsync().catch(() => undefined);
    await platform.cleanup();
  }
}

await main();
