import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { resolveSourceImport, sourceFiles, SRC } from '@/testing/source-files';

// The router keeps every route module in the entry, beside the route tree: its search check (validateSearch), its
// beforeLoad and whatever else it names, with all they import. Only a file route's component, errorComponent and
// notFoundComponent are split off with the page (the router plugin's default; the root route is not split at all).
// A runtime value of @sc/contracts reached from that kept part (an enum, a limit) brings its contracts modules into
// the first load of every page, so the search checks are written as data (navigation/search-params.ts: searchOf,
// allOf, limits checked with `satisfies typeof`). This follows the imports of the kept part of every route module and
// fails on any runtime value of @sc/contracts it reaches.

const CONTRACTS = join(SRC, '..', '..', '..', 'libs', 'contracts', 'src');

/**
 * The frame's own modules, which need runtime values of @sc/contracts and are in the entry whatever the routes do:
 * the route table (the roles and buttons of the menu and the permission check), the session (its permissions) and the
 * API client (the result codes). The walk stops at them.
 */
const FRAME = ['navigation/route-table.ts', 'navigation/permitted-routes.ts', 'auth/session-store.ts', 'api/request.ts'];

/** What the router plugin splits off a file route into the page's chunk. */
const SPLIT = new Set(['component', 'errorComponent', 'notFoundComponent']);

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

const isContracts = (spec: string) => spec === '@sc/contracts' || spec.startsWith('@sc/contracts/');

/** The names @sc/contracts exports as runtime values (constants, functions, enums, classes), through its barrels. */
function contractsValues(file = join(CONTRACTS, 'index.ts'), seen = new Set<string>()): Set<string> {
  const values = new Set<string>();
  if (seen.has(file)) return values;
  seen.add(file);
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      const target = resolveSourceImport(file, (statement.moduleSpecifier as ts.StringLiteral).text, CONTRACTS);
      if (!target) continue;
      const inner = contractsValues(target, seen);
      if (!statement.exportClause) inner.forEach((name) => values.add(name));
      else if (ts.isNamedExports(statement.exportClause))
        for (const element of statement.exportClause.elements)
          if (!element.isTypeOnly && inner.has((element.propertyName ?? element.name).text)) values.add(element.name.text);
    } else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) values.add(declaration.name.text);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && exported(statement)) {
      if (statement.name) values.add(statement.name.text);
    }
  }
  return values;
}

const CONTRACT_VALUES = contractsValues();

interface ValueImport {
  spec: string;
  /** Local names bound to runtime values ('*' for a namespace import); none for an import only run for its effect. */
  names: { local: string; imported: string }[];
  sideEffect: boolean;
}

/** The imports of a module that bind or run code (`import type` and type-only names left out); re-exports too. */
function valueImports(source: ts.SourceFile): ValueImport[] {
  const found: ValueImport[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
      const clause = statement.importClause;
      if (!clause) {
        found.push({ spec, names: [], sideEffect: true });
        continue;
      }
      if (clause.isTypeOnly) continue;
      const names: ValueImport['names'] = [];
      if (clause.name) names.push({ local: clause.name.text, imported: 'default' });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push({ local: bindings.name.text, imported: '*' });
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          if (!element.isTypeOnly) names.push({ local: element.name.text, imported: (element.propertyName ?? element.name).text });
      if (names.length > 0) found.push({ spec, names, sideEffect: false });
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
      const clause = statement.exportClause;
      const names =
        clause && ts.isNamedExports(clause)
          ? clause.elements.filter((e) => !e.isTypeOnly).map((e) => ({ local: e.name.text, imported: (e.propertyName ?? e.name).text }))
          : [{ local: '*', imported: '*' }];
      found.push({ spec, names, sideEffect: true });
    }
  }
  return found;
}

/** The runtime values of @sc/contracts among an import's names (all of them for a namespace import or `export *`). */
function contractsValuesOf(entry: ValueImport): string[] {
  if (!isContracts(entry.spec)) return [];
  return entry.names.flatMap(({ imported }) => (imported === '*' ? ['*'] : CONTRACT_VALUES.has(imported) ? [imported] : []));
}

/** Identifiers the route module's kept code refers to: everything but the imports and the split-off options. */
function keptIdentifiers(source: ts.SourceFile): Set<string> {
  const kept = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isCallExpression(node) && ts.isCallExpression(node.expression)) {
      const factory = node.expression.expression.getText(source);
      // createFileRoute('/path')({ ... }): its split options go with the page. A root route is kept whole.
      if (/^create(File|LazyFile)Route$/.test(factory)) {
        for (const argument of node.arguments) {
          if (!ts.isObjectLiteralExpression(argument)) {
            visit(argument);
            continue;
          }
          for (const property of argument.properties) {
            const name = property.name && ts.isIdentifier(property.name) ? property.name.text : undefined;
            if (!name || !SPLIT.has(name)) visit(property);
          }
        }
        visit(node.expression);
        return;
      }
    }
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!isPropertyName) kept.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return kept;
}

/** Where the kept part of a route module reaches a runtime value of @sc/contracts: one line per path, empty if nowhere. */
function contractValuesReached(routeFile: string, text?: string): string[] {
  const source = parse(routeFile, text);
  const kept = keptIdentifiers(source);
  const problems: string[] = [];
  const seen = new Set<string>();
  const name = (file: string) => relative(SRC, file);
  const walk = (file: string, trail: string[]) => {
    if (seen.has(file) || FRAME.includes(name(file))) return;
    seen.add(file);
    for (const entry of valueImports(parse(file))) {
      const values = contractsValuesOf(entry);
      if (values.length > 0) problems.push(`${[...trail, name(file)].join(' → ')} imports ${values.join(', ')} from ${entry.spec}`);
      const target = resolveSourceImport(file, entry.spec);
      if (target) walk(target, [...trail, name(file)]);
    }
  };
  for (const entry of valueImports(source)) {
    const used = entry.sideEffect || entry.names.some(({ local }) => kept.has(local));
    if (!used) continue;
    const values = contractsValuesOf(entry).filter((value) => value === '*' || entry.names.some((n) => n.imported === value && kept.has(n.local)));
    if (values.length > 0) problems.push(`${name(routeFile)} imports ${values.join(', ')} from ${entry.spec}`);
    const target = resolveSourceImport(routeFile, entry.spec);
    if (target) walk(target, [name(routeFile)]);
  }
  return problems;
}

describe('route modules: no runtime value of @sc/contracts in the entry', () => {
  const routes = sourceFiles(join(SRC, 'routes'));

  it('finds the route modules, the frame modules and the runtime values of @sc/contracts', () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const file of FRAME) expect([file, existsSync(join(SRC, file))]).toEqual([file, true]);
    expect([...CONTRACT_VALUES]).toEqual(expect.arrayContaining(['TASK_NAME_MAX', 'LampStatus', 'TerminalStatus', 'PAGE_SIZE_MAX', 'Role']));
    expect(CONTRACT_VALUES.has('BroadcastTaskRow')).toBe(false);
  });

  it('tells a search check that imports a limit or an enum from one that keeps it to its page', () => {
    const route = join(SRC, 'routes', '_auth', '_shell', 'example.tsx');
    const validated = `import { createFileRoute } from '@tanstack/react-router';
import { LAMP_NAME_MAX, LampStatus, type LampRow } from '@sc/contracts';
import { Page } from '@/features/example';
export const Route = createFileRoute('/_auth/_shell/example')({
  validateSearch: (search: Record<string, unknown>) => ({ name: String(search.name).slice(0, LAMP_NAME_MAX) }),
  component: Page,
});`;
    expect(contractValuesReached(route, validated)).toEqual([`routes/_auth/_shell/example.tsx imports LAMP_NAME_MAX from @sc/contracts`]);
    const pageOnly = validated.replace('.slice(0, LAMP_NAME_MAX)', '').replace('component: Page', 'component: () => Page(LampStatus.Normal)');
    expect(contractValuesReached(route, pageOnly)).toEqual([]);
    // Through the modules the kept part imports: the page's module is fine as its component, not in its beforeLoad.
    const throughModules = `import { createFileRoute } from '@tanstack/react-router';
import { validateTaskSearch } from '@/features/broadcast/tasks-search';
import { TaskPage } from '@/features/broadcast/task-page';
export const Route = createFileRoute('/_auth/_shell/example')({ validateSearch: validateTaskSearch, component: TaskPage });`;
    expect(contractValuesReached(route, throughModules)).toEqual([]);
    const inBeforeLoad = throughModules.replace('component: TaskPage', 'beforeLoad: () => void TaskPage');
    expect(contractValuesReached(route, inBeforeLoad)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^routes\/_auth\/_shell\/example\.tsx → features\/broadcast\/task-page\.tsx imports .*BroadcastTaskMode/),
      ]),
    );
  });

  it.each(routes.map((file) => [relative(join(SRC, 'routes'), file), file]))('%s reaches no runtime value of @sc/contracts', (_name, file) => {
    expect(contractValuesReached(file)).toEqual([]);
  });
});
