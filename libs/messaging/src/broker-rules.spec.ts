import { DeviceFamily, MqttChannel, MqttService, mqttTopics, mqttUsernames } from '@sc/contracts';
import { baseAclLines, speaksForRules } from './broker-access';
import { aclAllows, emqxAcl, filterCovers, rulesForUser } from './broker-rules';

describe("the access list as one account's rules (for brokers that take them per client)", () => {
  const base = baseAclLines();
  const topic = (code: string, channel: MqttChannel, family = DeviceFamily.Lamp) => mqttTopics.of(family, code, channel);

  it('reads filters as MQTT does: a granted wildcard covers a topic or a narrower filter, never a wider one', () => {
    expect(filterCovers('city/v1/lamp/+/state', 'city/v1/lamp/A/state')).toBe(true);
    expect(filterCovers('city/v1/lamp/+/state', 'city/v1/lamp/+/state')).toBe(true);
    expect(filterCovers('city/v1/lamp/A/cmd', 'city/v1/lamp/+/cmd')).toBe(false);
    expect(filterCovers('city/v1/lamp/A/cmd', 'city/v1/lamp/#')).toBe(false);
    expect(filterCovers('city/v1/#', 'city/v1')).toBe(true);
    expect(filterCovers('city/v1/#', 'city/v1/lamp/A/state')).toBe(true);
    expect(filterCovers('city/v1/+', 'city/v1/lamp/A')).toBe(false);
    expect(filterCovers('city/v1/lamp/A/state', 'city/v1/lamp/A/state/x')).toBe(false);
    expect(filterCovers('#', '$SYS/broker/clients')).toBe(false);
  });

  it('gives a device its own topics only: report on its channels, read its commands, hear the radars', () => {
    const rules = rulesForUser(base, mqttUsernames.device(DeviceFamily.Lamp, 'A'));
    for (const channel of [MqttChannel.State, MqttChannel.Ack, MqttChannel.Telemetry, MqttChannel.Event]) {
      expect(aclAllows(rules, 'write', topic('A', channel))).toBe(true);
      expect(aclAllows(rules, 'write', topic('B', channel))).toBe(false);
    }
    expect(aclAllows(rules, 'read', topic('A', MqttChannel.Cmd))).toBe(true);
    expect(aclAllows(rules, 'read', topic('B', MqttChannel.Cmd))).toBe(false);
    expect(aclAllows(rules, 'read', mqttTopics.all(DeviceFamily.Lamp, MqttChannel.Cmd))).toBe(false);
    expect(aclAllows(rules, 'write', topic('B', MqttChannel.Cmd))).toBe(false);
    expect(aclAllows(rules, 'write', topic('A', MqttChannel.Cmd))).toBe(false);
    expect(aclAllows(rules, 'read', mqttTopics.all(DeviceFamily.Radar, MqttChannel.Event))).toBe(true);
    expect(aclAllows(rules, 'write', topic('A', MqttChannel.State, DeviceFamily.Strip))).toBe(false);
  });

  it("adds a lamp gateway's devices to its own topics, and nobody else's", () => {
    const gateway = mqttUsernames.device(DeviceFamily.LampGateway, 'G');
    const rules = rulesForUser(base, gateway, speaksForRules(DeviceFamily.Lamp, 'C'));
    expect(aclAllows(rules, 'write', topic('C', MqttChannel.State))).toBe(true);
    expect(aclAllows(rules, 'read', topic('C', MqttChannel.Cmd))).toBe(true);
    expect(aclAllows(rules, 'write', topic('C', MqttChannel.Cmd))).toBe(false);
    expect(aclAllows(rules, 'write', topic('A', MqttChannel.State))).toBe(false);
    expect(aclAllows(rules, 'write', topic('G', MqttChannel.State, DeviceFamily.LampGateway))).toBe(true);
  });

  it('gives each service what its families need: the worker hears every lamp and commands them, the gateway neither', () => {
    const worker = rulesForUser(base, mqttUsernames.service(MqttService.WorkerLighting));
    expect(aclAllows(worker, 'read', mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State))).toBe(true);
    expect(aclAllows(worker, 'write', topic('A', MqttChannel.Cmd))).toBe(true);
    expect(aclAllows(worker, 'write', topic('A', MqttChannel.State))).toBe(false);
    const gateway = rulesForUser(base, mqttUsernames.service(MqttService.Gateway));
    expect(aclAllows(gateway, 'read', mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State))).toBe(false);
    expect(aclAllows(gateway, 'write', topic('A', MqttChannel.Cmd))).toBe(false);
  });

  it('reads Mosquitto access lines as Mosquitto does: a topic without an access is read and write, for the user above it', () => {
    const lines = ['# comment', 'pattern read a/%u/in', 'user u1', 'topic b/#', 'user u2', 'topic write c/x'];
    expect(rulesForUser(lines, 'u1')).toEqual([
      { access: 'read', filter: 'a/u1/in' },
      { access: 'readwrite', filter: 'b/#' },
    ]);
    expect(rulesForUser(lines, 'u2')).toEqual([
      { access: 'read', filter: 'a/u2/in' },
      { access: 'write', filter: 'c/x' },
    ]);
  });

  it("ends EMQX's list with everything else denied", () => {
    const acl = emqxAcl([
      { access: 'read', filter: 'a/#' },
      { access: 'readwrite', filter: 'b' },
    ]);
    expect(acl).toEqual([
      { permission: 'allow', action: 'subscribe', topic: 'a/#' },
      { permission: 'allow', action: 'all', topic: 'b' },
      { permission: 'deny', action: 'all', topic: '#' },
    ]);
  });
});
