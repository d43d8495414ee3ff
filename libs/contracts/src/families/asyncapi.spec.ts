import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { buildAsyncApi } from './asyncapi';
import { FAMILIES } from '.';

const DOCUMENT = join(__dirname, '..', '..', '..', '..', 'docs', 'asyncapi.yaml');
const HEADER = '# Generated from libs/contracts/src/families/ by `npm run docs:asyncapi`: edit the declarations, not this file.\n';

describe('docs/asyncapi.yaml', () => {
  const generated = buildAsyncApi(FAMILIES);

  // `npm run docs:asyncapi` runs this test with UPDATE_ASYNCAPI=1 to write the document anew.
  if (process.env.UPDATE_ASYNCAPI === '1') writeFileSync(DOCUMENT, HEADER + stringify(generated, { lineWidth: 0, aliasDuplicateObjects: false }));

  it('is the document the family declarations make', () => {
    expect(parse(readFileSync(DOCUMENT, 'utf8'))).toEqual(generated);
  });

  it('describes every declared family’s commands and reports', () => {
    const messages = (generated.components as { messages: Record<string, { payload: unknown }> }).messages;
    expect(Object.keys(messages)).toEqual(
      expect.arrayContaining([
        'lampCommand',
        'stripCommand',
        'lampState',
        'stripState',
        'lampGatewayState',
        'lightTelemetry',
        'fault',
        'ack',
        'offline',
      ]),
    );
    const lampCommands = (messages.lampCommand.payload as { oneOf: { properties: { type: { const: string } } }[] }).oneOf.map(
      (c) => c.properties.type.const,
    );
    expect(lampCommands).toEqual(['switch', 'dim', 'sync', 'schedule']);
  });
});
