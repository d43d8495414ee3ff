// The equipment page in a real browser on the real services: its tabs, moving lamps to a group (a target group is
// required), and Sync Data turning the lamps synchronizing (-1) and back to normal once the simulator reports.
import type { Browser, Page } from 'playwright-core';
import { LampStatus, OnlineState } from '@sc/contracts';
import { waitForMqttLogin } from '@sc/messaging';
import { waitFor, type ApiClient } from '@sc/testing';
import mqtt from 'mqtt';
import type { Fleet } from '../apps/device-sim/src';
import { common as esCommon } from '../apps/web/src/i18n/locales/es/common';
import { lighting as esLighting } from '../apps/web/src/i18n/locales/es/lighting';
import { common as jaCommon } from '../apps/web/src/i18n/locales/ja/common';
import { lighting as jaLighting } from '../apps/web/src/i18n/locales/ja/lighting';
import { common as zhCommon } from '../apps/web/src/i18n/locales/zh/common';
import { dispatch as zhDispatch } from '../apps/web/src/i18n/locales/zh/dispatch';
import { lighting as zhLighting } from '../apps/web/src/i18n/locales/zh/lighting';
import { PHONE, closePage, launchBrowser, login, newPage, pageErrors, screenshot, socketConnected } from './support/browser';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  fleetFor,
  insertLamps,
  lampPage,
  signIn,
  startWorkerProcess,
  uniqueCodePrefix,
  type InsertedLamps,
  type RunningWorker,
} from './support/pipeline';

const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** A translation with its {{placeholders}} filled in, as i18next fills them. */
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

describe('lighting: the equipment page', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: Fleet;
  let lamps: InsertedLamps;
  let admin: ApiClient;
  let browser: Browser;
  let page: Page;
  const prefix = uniqueCodePrefix('Q');
  const gatewayCode = `${prefix}GW-0001`;
  const groupName = `${prefix}North`;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
    lamps = await insertLamps(gw.db, 3, prefix);
    // Silent devices are looked for twice a second, so a stale one turns offline within the test.
    [worker, admin] = await Promise.all([startWorkerProcess(gw, { SILENCE_SWEEP_MS: '500' }), signIn(gw)]);
    await admin.post('/api/light/gatewayAddOrEdit', { gatewayId: gatewayCode, name: `${prefix} concentrator` });
    await admin.post('/api/light/loopAddOrEdit', { gatewayId: gatewayCode, code: 'L1', name: `${prefix} loop` });
    await admin.post('/api/light/groupAddOrEdit', { type: 1, name: groupName });
    // Slow acks keep the synchronizing status on screen long enough to see it.
    fleet = await fleetFor(lamps.codes, { gatewayPrefix: `${prefix}GW-`, ackLatencyMs: { min: 1500, max: 1500 } });
    await waitFor(async () => {
      const { list } = await lampPage(admin, { pageNum: 1, pageSize: 20, lampName: prefix, networkStatus: OnlineState.Online });
      return list.length === lamps.codes.length ? true : undefined;
    }, 10_000);
    page = await newPage(browser);
    await page.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
    await login(page, gw.baseUrl, 'admin');
  }, 90_000);

  afterAll(async () => {
    if (page) await closePage(page);
    await browser?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  });

  const row = (code: string) => page.getByTestId(`lamp-row-${code}`);

  it('shows gateways, loops, single lamps and groups on their tabs', async () => {
    const connected = socketConnected(page);
    await page.goto(`${gw.baseUrl}/smartLamp/equipmentManage?lampName=${encodeURIComponent(prefix)}`);
    await row(lamps.codes[2]).waitFor();
    await connected;
    // The simulator's gateway is the one the lamps report, and the list shows it.
    expect(await row(lamps.codes[0]).getByTestId('lamp-gateway').textContent()).toBe(gatewayCode);

    await page.getByTestId('equipment-tab-gateways').click();
    await page.getByTestId(`gateway-row-${gatewayCode}`).waitFor();
    expect(await page.getByTestId(`gateway-row-${gatewayCode}`).getByTestId('gateway-lamps').textContent()).toBe('3 / 3');
    // Online from the simulated gateway's own MQTT state, stored by the lighting worker.
    await page.locator(`[data-testid="gateway-row-${gatewayCode}"] [data-testid="lamp-network"][data-network="${OnlineState.Online}"]`).waitFor();
    await screenshot(page, 'equipment-gateways');
    await page.getByTestId('equipment-tab-loops').click();
    await page.getByTestId(`loop-row-${gatewayCode}-L1`).waitFor();
    await page.getByTestId('equipment-tab-groups').click();
    await page.getByTestId(`group-row-${groupName}`).waitFor();
    await screenshot(page, 'equipment-groups');
    expect(await page.getByTestId(`group-row-${groupName}`).getByTestId('group-count').textContent()).toBe('0');
    await page.getByTestId('equipment-tab-lamps').click();
    await row(lamps.codes[0]).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBeNull();
  }, 30_000);

  it('shows a gateway stored online but silent for three heartbeats as offline, live, whatever its stored state said (en, zh); Edit MQTT gives it a new login', async () => {
    const stale = `${prefix}GW-STALE`;
    // Last heard 175 s ago: within three heartbeats of 60 s for a few seconds more.
    await gw.db.query(`INSERT INTO lamp_gateway (code, name, network_status, reported_at) VALUES ($1, $2, $3, now() - interval '175 seconds')`, [
      stale,
      `${prefix} quiet concentrator`,
      OnlineState.Online,
    ]);
    const network = (target: Page, code: string, state: OnlineState) =>
      target.locator(`[data-testid="gateway-row-${code}"] [data-testid="lamp-network"][data-network="${state}"]`);
    await page.goto(`${gw.baseUrl}/smartLamp/equipmentManage?tab=gateways`);
    await network(page, stale, OnlineState.Online).waitFor();
    // Taken offline by the worker's silence sweep and pushed to the open list, with no reload.
    await network(page, stale, OnlineState.Offline).waitFor({ timeout: 15_000 });
    expect(await network(page, stale, OnlineState.Offline).textContent()).toBe('Offline');
    // The simulator's gateway keeps to its heartbeat and stays online.
    await network(page, gatewayCode, OnlineState.Online).waitFor();

    // Edit MQTT on the gateway row: after a confirmation, a new login under the same code, which the broker takes.
    await page.locator(`[data-testid="gateway-row-${stale}"] [data-testid="gateway-renew-mqtt"]`).click();
    await page.getByTestId('mqtt-renew-confirm').click();
    await page.getByTestId('mqtt-credentials').waitFor();
    const renewed = {
      username: (await page.getByTestId('mqtt-username').textContent())!,
      password: (await page.getByTestId('mqtt-password').textContent())!,
    };
    expect(renewed.username).toBe(`lamp-gateway/${stale}`);
    await page.getByTestId('mqtt-credentials-done').click();
    await waitForMqttLogin(MQTT_URL, renewed);

    const zh = await newPage(browser, undefined, { language: 'zh', baseUrl: gw.baseUrl });
    try {
      await login(zh, gw.baseUrl, 'admin');
      await zh.goto(`${gw.baseUrl}/smartLamp/equipmentManage?tab=gateways`);
      expect(await network(zh, stale, OnlineState.Offline).textContent()).toBe('离线');
    } finally {
      await closePage(zh);
    }
    await page.goto(`${gw.baseUrl}/smartLamp/equipmentManage?lampName=${encodeURIComponent(prefix)}`);
    await row(lamps.codes[0]).waitFor();
  }, 45_000);

  it('moves the selected lamps to a group: no target says "Please select a group", then the rows show the group', async () => {
    const [a, b] = lamps.codes;
    await row(a).getByTestId('lamp-select').check();
    await row(b).getByTestId('lamp-select').check();
    await page.getByTestId('lamp-move-group').click();
    await page.getByTestId('move-group').waitFor();
    await page.getByTestId('move-group-submit').click();
    await page.getByTestId('move-group').getByText('Please select a group').waitFor();
    expect(await gw.db.query(`SELECT count(*)::int AS n FROM device WHERE group_id IS NOT NULL AND code LIKE $1`, [`${prefix}%`])).toEqual([
      { n: 0 },
    ]);

    await page.getByTestId('move-group-select').click();
    await page.getByRole('option', { name: groupName, exact: true }).click();
    await page.getByTestId('move-group-submit').click();
    await page.locator(`[data-testid="lamp-row-${a}"] [data-testid="lamp-group"]`, { hasText: groupName }).waitFor();
    expect(await row(b).getByTestId('lamp-group').textContent()).toBe(groupName);
    expect(await row(lamps.codes[2]).getByTestId('lamp-group').textContent()).toBe('—');

    await page.getByTestId('equipment-tab-groups').click();
    await page.locator(`[data-testid="group-row-${groupName}"] [data-testid="group-count"]`, { hasText: '2' }).waitFor();
    await page.getByTestId('equipment-tab-lamps').click();
    await row(a).waitFor();
  }, 30_000);

  it('Sync Data is confirmed with its lamp count, shows the lamp synchronizing (-1) and the dispatch live, then normal once the simulator has reported', async () => {
    const code = lamps.codes[2];
    const status = row(code).getByTestId('lamp-status');
    await row(code).getByTestId('lamp-select').check();
    await page.getByTestId('lamp-sync').click();
    // Nothing leaves before the operator confirms, and the question names how many lamps the command reaches.
    const confirm = page.getByRole('dialog', { name: 'Send the command?' });
    await confirm.getByText('Sync data for 1 lamp.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await gw.db.query(`SELECT count(*)::int AS n FROM dispatch WHERE action = 'sync'`)).toEqual([{ n: 0 }]);
    await page.getByTestId('lamp-sync').click();
    await page.getByTestId('command-confirm').click();
    await row(code).locator(`[data-testid="lamp-status"][data-status="${LampStatus.Synchronizing}"]`).waitFor({ timeout: 5000 });
    // The shared dispatch progress follows it, in a drawer kept in the address.
    const drawer = page.getByTestId('dispatch-drawer');
    await drawer.locator(`[data-testid="dispatch-panel"][data-status="allSuccessful"]`).waitFor({ timeout: 10_000 });
    expect(await drawer.getByTestId('dispatch-progress').textContent()).toBe('1 of 1 answered');
    expect(new URL(page.url()).searchParams.get('dispatch')).toMatch(/^[0-9a-f-]{36}$/);
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('dispatch'));
    await row(code).locator(`[data-testid="lamp-status"][data-status="${LampStatus.Normal}"]`).waitFor({ timeout: 10_000 });
    expect(await status.textContent()).toBe('Normal');
    await row(code).getByTestId('lamp-view').click();
    await page.getByTestId('lamp-detail').waitFor();
    await screenshot(page, 'equipment-lamp-detail');
    await page.keyboard.press('Escape');
    const [dispatch] = await gw.db.query<{ action: string; status: string }>(`SELECT action, status FROM dispatch ORDER BY created_at DESC LIMIT 1`);
    expect(dispatch).toEqual({ action: 'sync', status: 'allSuccessful' });
    expect(pageErrors(page)).toEqual([]);

    // The same question and progress in Chinese.
    const zh = await newPage(browser, undefined, { language: 'zh', baseUrl: gw.baseUrl });
    try {
      await zh.addInitScript("localStorage.setItem('isAutoRefresh', 'false')");
      await login(zh, gw.baseUrl, 'admin');
      await zh.goto(`${gw.baseUrl}/smartLamp/equipmentManage?lampName=${encodeURIComponent(prefix)}`);
      const zhRow = zh.getByTestId(`lamp-row-${code}`);
      await zhRow.getByTestId('lamp-select').check();
      await zh.getByTestId('lamp-sync').click();
      await zh
        .getByRole('dialog', { name: zhCommon.command.confirmTitle })
        .getByText(fill(zhLighting.control.confirmLamps_one, { count: 1, action: zhLighting.dispatch.action.sync }), { exact: true })
        .waitFor();
      await zh.getByTestId('command-confirm').click();
      const zhDrawer = zh.getByTestId('dispatch-drawer');
      await zhDrawer.locator(`[data-testid="dispatch-panel"][data-status="allSuccessful"]`).waitFor({ timeout: 10_000 });
      expect(await zhDrawer.getByTestId('dispatch-progress').textContent()).toBe(fill(zhDispatch.progress, { done: 1, total: 1 }));
      await zh.keyboard.press('Escape');
      await zhRow.locator(`[data-testid="lamp-status"][data-status="${LampStatus.Normal}"]`).waitFor({ timeout: 10_000 });
      expect(pageErrors(zh)).toEqual([]);
    } finally {
      await closePage(zh);
    }
  }, 45_000);

  it('Lamp Control on a phone, in Spanish and in Japanese: filters fold behind a button, a region-wide command names how many lamps it reaches, and the progress comes into view', async () => {
    const region = `${prefix}Centro`;
    const [{ id }] = await gw.db.query<{ id: number }>(`INSERT INTO region (region_name, parent_id) VALUES ($1, NULL) RETURNING id`, [region]);
    await gw.db.query(`UPDATE device SET region_id = $1 WHERE code = ANY($2)`, [id, lamps.codes]);
    const others = await insertLamps(gw.db, 17, `${prefix}X`);
    const count = lamps.codes.length;
    try {
      for (const [language, common, lighting] of [
        ['es', esCommon, esLighting],
        ['ja', jaCommon, jaLighting],
      ] as const) {
        const phone = await newPage(browser, PHONE, { language, baseUrl: gw.baseUrl });
        try {
          await login(phone, gw.baseUrl, 'admin');
          await phone.goto(`${gw.baseUrl}/smartLamp/lampControl`);
          // The filters wait behind their button; the lamp list starts on the first screen.
          const toggle = phone.getByTestId('lamp-toggle');
          await toggle.waitFor();
          expect(await toggle.getAttribute('aria-expanded')).toBe('false');
          expect(await phone.getByTestId('lamp-search').isVisible()).toBe(false);
          await toggle.click();
          await phone.getByTestId('lamp-search').waitFor({ state: 'visible' });

          // Picked lamps among a page of twenty: the progress panel sits below the list on a phone, and a command brings it
          // into view.
          await phone.goto(`${gw.baseUrl}/smartLamp/lampControl?pageSize=50&lampName=${prefix}`);
          for (const code of lamps.codes) await phone.getByTestId(`control-row-${code}`).click();
          await phone.getByText(fill(lighting.control.selected_other, { count }), { exact: true }).waitFor();
          // Back up to the buttons, as the operator would.
          await phone.getByTestId('control-open').scrollIntoViewIfNeeded();
          const panel = phone.getByTestId('dispatch-panel');
          expect((await panel.boundingBox())!.y).toBeGreaterThan(PHONE.height);
          await phone.getByTestId('control-open').click();
          await phone
            .getByRole('dialog', { name: common.command.confirmTitle })
            .getByText(fill(lighting.control.confirmLamps_other, { count, action: lighting.dispatch.action.on }), { exact: true })
            .waitFor();
          await phone.getByTestId('control-confirm').click();
          await phone.locator('[data-testid="dispatch-panel"][data-status="allSuccessful"]').waitFor({ timeout: 15_000 });
          const box = (await panel.boundingBox())!;
          expect(box.y).toBeGreaterThanOrEqual(0);
          expect(box.y).toBeLessThan(PHONE.height);

          // A whole region: the question counts the lamps of the region and its sub-regions before anything is sent.
          await phone.getByTestId('control-mode').getByText(lighting.control.byRegion).click();
          const field = phone.getByTestId('control-region');
          await field.click();
          await field.fill(region);
          await phone.getByRole('option', { name: region }).first().click();
          await phone.getByTestId('control-close').click();
          const confirm = phone.getByRole('dialog', { name: common.command.confirmTitle });
          await confirm
            .getByText(fill(lighting.control.confirmRegion_other, { count, region, action: lighting.dispatch.action.off }), { exact: true })
            .waitFor();
          await phone.getByTestId('control-confirm').click();
          await phone.locator('[data-testid="dispatch-panel"][data-status="allSuccessful"]').waitFor({ timeout: 15_000 });
          await waitFor(async () => (lamps.codes.every((code) => fleet.lamp(code)?.on === false) ? true : undefined), 10_000);
          expect(pageErrors(phone)).toEqual([]);
        } finally {
          await closePage(phone);
        }
      }
    } finally {
      await gw.db.query(`DELETE FROM device WHERE id = ANY($1)`, [others.ids]);
    }
  }, 75_000);

  it('a new lamp gets its MQTT login once, and Edit MQTT issues a new one that replaces it on the broker', async () => {
    const code = `${prefix}NEW-1`;
    const credentials = async () => {
      await page.getByTestId('mqtt-credentials').waitFor();
      const login = {
        username: (await page.getByTestId('mqtt-username').textContent())!,
        password: (await page.getByTestId('mqtt-password').textContent())!,
      };
      await page.getByTestId('mqtt-credentials-done').click();
      await page.getByTestId('mqtt-credentials').waitFor({ state: 'detached' });
      return login;
    };
    await page.getByTestId('lamp-add').click();
    await page.getByTestId('lamp-form').locator('input[name="lampName"]').fill(`${prefix} new lamp`);
    await page.getByTestId('lamp-form').locator('input[name="clientId"]').fill(code);
    await page.getByTestId('lamp-save').click();
    const first = await credentials();
    expect(first.username).toBe(`lamp/${code}`);
    expect(first.password).toMatch(/^[0-9a-f]{64}$/);
    // The broker takes the new lamp's login once the platform has written its accounts.
    await waitForMqttLogin(MQTT_URL, first);
    const device = await mqtt.connectAsync(MQTT_URL, { ...first, clientId: `${code}-device`, reconnectPeriod: 0 });
    const dropped = new Promise<void>((resolve) => device.once('close', () => resolve()));

    await page.goto(`${gw.baseUrl}/smartLamp/equipmentManage?lampName=${encodeURIComponent(`${prefix} new`)}`);
    await row(code).getByTestId('lamp-edit-mqtt').click();
    await page.getByTestId('edit-mqtt-submit').click();
    const second = await credentials();
    expect(second.username).toBe(first.username);
    expect(second.password).not.toBe(first.password);
    // The old login is refused and its connection dropped; the new one logs in.
    await dropped;
    await expect(mqtt.connectAsync(MQTT_URL, { ...first, reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad user name or password/i);
    await waitForMqttLogin(MQTT_URL, second);
    expect(pageErrors(page)).toEqual([]);
  }, 30_000);
});
