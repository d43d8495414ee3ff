// The tab's feed bookkeeping against a scripted socket.io client: which watchers reload after a feed is joined, and
// what the server is asked for. The server's answer to `watch` arrives when the test says so.
import { EventEmitter } from 'node:events';
import { DeviceFamily, type LiveTopic } from '@sc/contracts';

type Ack = () => void;

class ScriptedSocket extends EventEmitter {
  connected = false;
  readonly sent: Array<{ name: string; topics: LiveTopic[]; ack?: Ack }> = [];
  emit(name: string, ...args: unknown[]): boolean {
    if (name === 'watch' || name === 'unwatch') {
      this.sent.push({ name, topics: args[0] as LiveTopic[], ack: args[1] as Ack | undefined });
      return true;
    }
    return super.emit(name, ...args);
  }
  /** The server answers every `watch` sent so far. */
  answerWatches(): void {
    for (const message of this.sent.splice(0)) message.ack?.();
  }
  connect(): void {
    this.connected = true;
    super.emit('connect');
  }
  drop(): void {
    this.connected = false;
    super.emit('disconnect', 'transport close');
  }
  removeAllListeners(): this {
    return super.removeAllListeners();
  }
  disconnect(): this {
    this.connected = false;
    return this;
  }
}

let scripted: ScriptedSocket;
jest.mock('socket.io-client', () => ({ io: () => scripted }));
jest.mock('@/auth/logged-out-dialog', () => ({ confirmLoggedOut: () => undefined }));

import { connectRealtime, disconnectRealtime, watchFeed } from './socket';

const lampState: LiveTopic = { event: 'DeviceStateChanged', family: DeviceFamily.Lamp };
const lampDispatch: LiveTopic = { event: 'DispatchProgress', family: DeviceFamily.Lamp };

describe('live feeds of a tab', () => {
  beforeEach(() => {
    disconnectRealtime();
    scripted = new ScriptedSocket();
  });

  it('reloads a page that watched a feed before the server confirmed it, and not one that came after', () => {
    const socket = connectRealtime();
    scripted.connect();
    const first = jest.fn();
    const second = jest.fn();
    watchFeed(socket, lampState, first);
    watchFeed(socket, lampState, second);
    // One request for the feed, whoever watches it.
    expect(scripted.sent.map((m) => [m.name, m.topics])).toEqual([['watch', [lampState]]]);
    expect(first).not.toHaveBeenCalled();

    scripted.answerWatches();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);

    // Joined already: a page opened now receives every event after its fetch began.
    const later = jest.fn();
    watchFeed(socket, lampState, later);
    scripted.answerWatches();
    expect(later).not.toHaveBeenCalled();
    expect(first).toHaveBeenCalledTimes(1);
  });

  it('asks for the feeds of pages opened before the socket connected, once it connects', () => {
    const socket = connectRealtime();
    const resync = jest.fn();
    watchFeed(socket, lampState, resync);
    watchFeed(socket, lampDispatch, resync);
    expect(scripted.sent).toEqual([]);
    scripted.connect();
    expect(scripted.sent.map((m) => m.topics)).toEqual([[lampState, lampDispatch]]);
    scripted.answerWatches();
    expect(resync).toHaveBeenCalledTimes(2);
  });

  it('reloads every watcher after a reconnect, once the server has the feeds again', () => {
    const socket = connectRealtime();
    scripted.connect();
    const resync = jest.fn();
    watchFeed(socket, lampState, resync);
    scripted.answerWatches();
    expect(resync).toHaveBeenCalledTimes(1);

    scripted.drop();
    scripted.connect();
    expect(resync).toHaveBeenCalledTimes(1);
    expect(scripted.sent.map((m) => [m.name, m.topics])).toEqual([['watch', [lampState]]]);
    scripted.answerWatches();
    expect(resync).toHaveBeenCalledTimes(2);
  });

  it('leaves a feed when its last watcher stops, and an answer for a feed left meanwhile reloads nobody', () => {
    const socket = connectRealtime();
    scripted.connect();
    const resync = jest.fn();
    const stopFirst = watchFeed(socket, lampState, resync);
    const stopSecond = watchFeed(socket, lampState, resync);
    stopFirst();
    expect(scripted.sent.map((m) => m.name)).toEqual(['watch']);
    stopSecond();
    expect(scripted.sent.map((m) => m.name)).toEqual(['watch', 'unwatch']);
    scripted.answerWatches();
    expect(resync).not.toHaveBeenCalled();

    // Watched again: asked for again, and reloaded when answered.
    watchFeed(socket, lampState, resync);
    expect(scripted.sent.map((m) => m.name)).toEqual(['watch']);
    scripted.answerWatches();
    expect(resync).toHaveBeenCalledTimes(1);
  });
});
