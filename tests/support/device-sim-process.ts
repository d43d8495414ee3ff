import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@sc/testing';
import { ownChild } from './child-process';
import { ROOT } from './gateway-process';

/** The device simulator's command line, built like the services (`npx nest build device-sim`). */
export const DEVICE_SIM = join(ROOT, 'dist', 'apps', 'device-sim', 'main.js');

/** One JSON log line of the simulator. */
export type SimulatorLine = { msg: string } & Record<string, unknown>;

export interface RunningSimulator {
  readonly process: ChildProcess;
  output(): string;
  /** Sends a --control-stdin line; resolves with the simulator's answer (its `device-sim <kind>` log line). */
  command(line: string): Promise<SimulatorLine>;
  /** What time the devices' clock says now. */
  clock(): Promise<Date>;
  /** Moves the devices' clock (and its speed, if given); resolves once every device has reported what it does then. */
  setClock(at: Date, speed?: number): Promise<Date>;
  /** SIGTERM: a clean disconnect, the devices' retained states emptied (--clear-retained). */
  stop(): Promise<number | null>;
}

/**
 * Starts the built device simulator as a process of its own with `args` (e.g. `--family broadcast --count 500 --prefix
 * P --clock-start … --clock-speed 60`), taking commands on its standard input (`--control-stdin`) and leaving no
 * retained states behind (`--clear-retained`); the broker's address and logins come from the test's environment.
 * Resolves once it logged that its fleet is connected.
 */
export async function startSimulatorProcess(args: readonly string[], timeoutMs = 60_000): Promise<RunningSimulator> {
  if (!existsSync(DEVICE_SIM)) throw new Error(`${DEVICE_SIM} is missing: run \`npx nest build device-sim\` (npm test does it for you)`);
  const child = spawn(process.execPath, [DEVICE_SIM, ...args, '--control-stdin', '--clear-retained'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  let connected = false;
  const listeners = new Set<(line: SimulatorLine) => void>();
  // What it printed last (its periodic summaries would otherwise pile up over a long test).
  const keep = (text: string) => (output = (output + text).slice(-20_000));
  child.stdout?.on('data', (d: Buffer) => {
    keep(d.toString());
    // Whole lines only: a chunk may end inside one.
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const text of lines) {
      if (text.includes('device-sim fleet connected')) connected = true;
      let line: SimulatorLine;
      try {
        line = JSON.parse(text) as SimulatorLine;
      } catch {
        continue;
      }
      for (const listener of listeners) listener(line);
    }
  });
  child.stderr?.on('data', (d: Buffer) => keep(d.toString()));
  // A simulator gone mid-test fails the command waiting on it, not the test process (EPIPE on its standard input).
  child.stdin?.on('error', () => undefined);
  const stopChild = ownChild(child);
  try {
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`the simulator exited with ${child.exitCode}`);
        return connected ? true : undefined;
      },
      timeoutMs,
      100,
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`the simulator did not connect its fleet: ${String(err)}\n${output.slice(-3000)}`);
  }

  // Commands are answered in the order they are sent: one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const command = (line: string): Promise<SimulatorLine> => {
    const answer = queue.then(
      () =>
        new Promise<SimulatorLine>((resolve, reject) => {
          const timer = setTimeout(() => done(new Error(`the simulator did not answer '${line}' within 15 s`)), 15_000);
          const listener = (heard: SimulatorLine) => {
            if (heard.msg === 'device-sim command refused') done(new Error(`the simulator refused '${line}': ${String(heard.err)}`));
            else if (heard.msg === `device-sim ${line.trim().split(/\s+/)[0]}`) done(null, heard);
          };
          const done = (err: Error | null, heard?: SimulatorLine) => {
            clearTimeout(timer);
            listeners.delete(listener);
            if (err) reject(err);
            else resolve(heard!);
          };
          listeners.add(listener);
          child.stdin?.write(`${line}\n`);
        }),
    );
    queue = answer.catch(() => undefined);
    return answer;
  };
  const timeOf = (answer: SimulatorLine) => new Date(String(answer.now));

  return {
    process: child,
    output: () => output,
    command,
    clock: async () => timeOf(await command('clock')),
    setClock: async (at, speed) => timeOf(await command(`clock ${at.toISOString()}${speed === undefined ? '' : ` ${speed}`}`)),
    stop: () => stopChild('SIGTERM'),
  };
}
