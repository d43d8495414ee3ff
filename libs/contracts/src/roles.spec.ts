import { ALL_BUTTONS, Button, GRANTABLE_PERMISSIONS, ROLE_BUTTONS, Role, buttonsOf, parsePermissionContent, rolesOf } from './roles';

describe('rolesOf', () => {
  it('gives administrators the single role admin, whatever their permission list', () => {
    expect(rolesOf(true, [])).toEqual([Role.Admin]);
    expect(rolesOf(true, ['Home', 'editor'])).toEqual([Role.Admin]);
  });

  it('takes the permission names of other users as their roles, trimmed and once each', () => {
    expect(rolesOf(false, ['Home', 'editor'])).toEqual(['Home', 'editor']);
    expect(rolesOf(false, [' visit ', 'visit', '', '  ', 'Home'])).toEqual(['visit', 'Home']);
  });

  it("gives 'default' to a user without any permission", () => {
    expect(rolesOf(false, [])).toEqual([Role.Default]);
    expect(rolesOf(false, ['', ' '])).toEqual([Role.Default]);
  });
});

describe('buttonsOf and ROLE_BUTTONS', () => {
  it('gives an administrator every button', () => {
    expect(buttonsOf([Role.Admin])).toEqual([...ALL_BUTTONS]);
    expect(ALL_BUTTONS).toHaveLength(14);
  });

  it('gives an editor everything but the MQTT settings', () => {
    expect(buttonsOf([Role.Editor])).toEqual(ALL_BUTTONS.filter((b) => b !== Button.EditMqtt));
    expect(buttonsOf(['Home', Role.Editor])).toEqual(buttonsOf([Role.Editor]));
  });

  it('gives a visitor view and refresh only', () => {
    expect(buttonsOf([Role.Visit])).toEqual([Button.View, Button.Refresh]);
    expect(buttonsOf(['Home', Role.Visit])).toEqual([Button.View, Button.Refresh]);
  });

  it('gives view alone to the default role, to unknown roles and to no roles', () => {
    expect(buttonsOf([Role.Default])).toEqual([Button.View]);
    expect(buttonsOf(['Home'])).toEqual([Button.View]);
    expect(buttonsOf(['superuser'])).toEqual([Button.View]);
    expect(buttonsOf([])).toEqual([Button.View]);
  });

  it('unites the buttons of several roles, in the order of ALL_BUTTONS', () => {
    expect(buttonsOf([Role.Visit, Role.Editor])).toEqual(buttonsOf([Role.Editor]));
    expect(buttonsOf([Role.Editor, Role.Admin])).toEqual([...ALL_BUTTONS]);
  });

  it('matches the matrix for every role', () => {
    for (const role of Object.values(Role)) {
      expect(buttonsOf([role])).toEqual(ALL_BUTTONS.filter((b) => ROLE_BUTTONS[role].includes(b)));
      for (const b of ROLE_BUTTONS[role]) expect(ALL_BUTTONS).toContain(b);
    }
    // Each role below the administrator has a subset of the one above it.
    expect(ROLE_BUTTONS[Role.Visit].every((b) => ROLE_BUTTONS[Role.Editor].includes(b))).toBe(true);
    expect(ROLE_BUTTONS[Role.Default].every((b) => ROLE_BUTTONS[Role.Visit].includes(b))).toBe(true);
  });

  it('lets a general group grant only Home, editor and visit', () => {
    expect([...GRANTABLE_PERMISSIONS]).toEqual(['Home', Role.Editor, Role.Visit]);
    expect(GRANTABLE_PERMISSIONS).not.toContain(Role.Admin);
  });
});

describe('parsePermissionContent', () => {
  it('reads the names of the permission objects', () => {
    expect(parsePermissionContent('[{"name":"Home"},{"name":"editor"}]')).toEqual(['Home', 'editor']);
    expect(parsePermissionContent(JSON.stringify([{ name: 'Admin', extra: 1 }]))).toEqual(['Admin']);
    expect(parsePermissionContent('[]')).toEqual([]);
  });

  it('answers no names for missing or malformed content', () => {
    for (const content of [undefined, null, '', 'not json', '{"name":"Home"}', 'null', '"Home"', '42', '[{"name":']) {
      expect(parsePermissionContent(content)).toEqual([]);
    }
  });

  it('skips entries that are not objects with a text name', () => {
    expect(parsePermissionContent('[{"name":"Home"}, null, "editor", {"name": 5}, {}, {"name":""}, {"name":"visit"}]')).toEqual(['Home', 'visit']);
  });

  it('round-trips with rolesOf as the console derives roles from login content', () => {
    expect(rolesOf(false, parsePermissionContent('[{"name":"Home"},{"name":"visit"}]'))).toEqual(['Home', Role.Visit]);
    expect(rolesOf(false, parsePermissionContent('garbage'))).toEqual([Role.Default]);
  });
});
