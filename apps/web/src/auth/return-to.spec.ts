import { pageToReturnTo } from './return-to';

describe('the page to return to after signing in', () => {
  it('keeps a path of the console with its query', () => {
    expect(pageToReturnTo('/systemSetting/userManage?pageNum=2')).toBe('/systemSetting/userManage?pageNum=2');
  });

  it('unwraps a redirect that points at the login page, however deep', () => {
    const once = `/login?redirect=${encodeURIComponent('/systemSetting/groupManage')}`;
    const twice = `/login?redirect=${encodeURIComponent(once)}`;
    expect(pageToReturnTo(once)).toBe('/systemSetting/groupManage');
    expect(pageToReturnTo(twice)).toBe('/systemSetting/groupManage');
    expect(pageToReturnTo('/login')).toBeUndefined();
    expect(pageToReturnTo('/login?redirect=')).toBeUndefined();
  });

  it('refuses anything that is not a path of this console', () => {
    for (const value of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)', 42, undefined])
      expect(pageToReturnTo(value)).toBeUndefined();
  });
});
