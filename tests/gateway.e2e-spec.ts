import { request } from 'node:http';
import { DEMO_PASSWORD } from '../apps/gateway/src/demo/demo-data';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';

/** The built gateway, driven from outside over HTTP as the console and operators use it. */
describe('gateway over HTTP', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGatewayProcess();
  }, 60_000);
  afterAll(async () => {
    if (gw) await gw.stop();
  });

  it('reports each service in /api/health', async () => {
    const answer = await gw.client().get<{ status: string; services: Record<string, { ok: boolean; latencyMs: number }> }>('/api/health');
    expect(answer.body.code).toBe(200);
    expect(answer.body.data.status).toBe('ok');
    for (const name of ['postgres', 'redis', 'mqtt']) {
      expect(answer.body.data.services[name].ok).toBe(true);
      expect(answer.body.data.services[name].latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('sends security headers with a strict script policy', async () => {
    const res = await fetch(`${gw.baseUrl}/api/health`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`127.0.0.1:${gw.env.UPLOAD_PORT}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers only to its own host names: another Host gets 421 and signs nobody in (DNS rebinding)', async () => {
    const send = (port: string, path: string, host: string, body?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: Number(port),
            path,
            method: body ? 'POST' : 'GET',
            headers: { host, 'content-type': 'application/json', 'accept-language': 'es' },
          },
          (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const login = JSON.stringify({ username: 'admin', password: DEMO_PASSWORD });
    const port = String(new URL(gw.baseUrl).port);
    const refused = await send(port, '/api/user/login', 'rebound.example:8080', login);
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body)).toEqual({
      code: 421,
      data: null,
      message: 'Esta consola no responde a la dirección rebound.example; ábrala en su dirección configurada',
    });
    expect((await send(port, '/', 'rebound.example')).status).toBe(421);
    expect((await send(String(gw.env.UPLOAD_PORT), '/api/imports/uploadTarget', 'rebound.example')).status).toBe(421);
    // Its own names, and health checks whatever the host (an orchestrator's probes call a pod by its address).
    expect((await send(port, '/api/user/login', `localhost:${port}`, login)).status).toBe(200);
    expect((await send(port, '/api/health', '10.42.0.7:8080')).status).toBe(200);
  });

  it('publishes OpenAPI generated from the DTOs', async () => {
    const doc = (await (await fetch(`${gw.baseUrl}/api/docs-json`)).json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    for (const path of ['/api/user/login', '/api/user/userPage', '/api/user/createUser', '/api/bi/area/queryAreaTree', '/api/log/operationPage']) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(doc.components.schemas.LoginDto.required).toEqual(expect.arrayContaining(['username', 'password']));
    expect(Object.keys(doc.components.schemas.UserPageDto.properties ?? {})).toEqual(
      expect.arrayContaining(['pageNum', 'pageSize', 'username', 'groupId', 'enabled']),
    );
    // Each route documented with the schema it validates, even where two modules have a "group add or edit".
    const bodyOf = (path: string) =>
      (doc.paths[path] as { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }).post.requestBody.content[
        'application/json'
      ].schema.$ref;
    expect(bodyOf('/api/user/groupAddOrEdit')).toBe('#/components/schemas/GroupAddOrEditDto');
    expect(Object.keys(doc.components.schemas.GroupAddOrEditDto.properties ?? {})).toEqual(expect.arrayContaining(['groupName', 'permissionMenu']));
    expect(bodyOf('/api/light/groupAddOrEdit')).toBe('#/components/schemas/DeviceGroupAddOrEditDto');
    expect(Object.keys(doc.components.schemas.DeviceGroupAddOrEditDto.properties ?? {})).toEqual(expect.arrayContaining(['type', 'name']));
    const html = await fetch(`${gw.baseUrl}/api/docs`);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('swagger');
  });

  it('lets an administrator create a user who can then sign in, and logs the change', async () => {
    const admin = await gw.client().login('admin', DEMO_PASSWORD);
    const groups = await admin.post<{ list: { id: number; groupName: string }[] }>('/api/user/groupPage', { pageNum: 1, pageSize: 20 });
    const editors = groups.body.data.list.find((g) => g.groupName === 'Editors');
    const created = await admin.post<{ id: number }>('/api/user/createUser', {
      username: 'night-shift',
      password: 'Lamps2026ok',
      groupId: editors?.id,
    });
    expect(created.body.code).toBe(200);

    const newcomer = await gw.client().login('night-shift', 'Lamps2026ok');
    const info = await newcomer.get<{ name: string; roles: string[] }>('/api/user/info');
    expect(info.body.data).toMatchObject({ name: 'night-shift', roles: ['Home', 'editor'] });

    const log = await admin.post<{
      list: { description: string; operator: string; status: string; requestParams: { body: Record<string, unknown> } }[];
    }>('/api/log/operationPage', { pageNum: 1, pageSize: 10, operator: 'admin', description: 'Create user' });
    expect(log.body.data.list[0]).toMatchObject({ description: 'Create user', operator: 'admin', status: 'success' });
    expect(log.body.data.list[0].requestParams.body).toMatchObject({ username: 'night-shift', password: '******' });
  });

  it('answers unknown API paths with the envelope in the caller language', async () => {
    const answer = await gw.client('ja').get('/api/no-such-thing');
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('API が存在しません：/api/no-such-thing');
  });

  it('finishes cleanly on SIGTERM', async () => {
    const other = await startGatewayProcess();
    const code = await other.stop('SIGTERM');
    expect(code).toBe(0);
    expect(other.output()).toContain('SIGTERM: finishing requests in flight');
  }, 60_000);
});
