import { buildSearchPages, createMenuSearch, loadPinyin, MENU_SEARCH_OPTIONS } from './menu-search';

const PAGES = [
  { path: '/systemSetting/userManage', titles: ['系统设置', '用户管理'] },
  { path: '/systemSetting/log', titles: ['系统设置', '操作日志'] },
  { path: '/regionManage/regionManage', titles: ['区域管理'] },
];

describe('header search (spec section 9)', () => {
  it('uses the specified threshold and weights', () => {
    expect(MENU_SEARCH_OPTIONS.threshold).toBe(0.4);
    expect(MENU_SEARCH_OPTIONS.keys).toEqual([
      { name: 'title', weight: 0.7 },
      { name: 'pinyinTitle', weight: 0.3 },
      { name: 'path', weight: 0.3 },
    ]);
  });

  it('finds a Chinese title by its pinyin when pinyin search is on', async () => {
    const search = createMenuSearch(buildSearchPages(PAGES, await loadPinyin()));
    expect(search('yonghu')[0]?.path).toBe('/systemSetting/userManage');
    expect(search('caozuorizhi')[0]?.path).toBe('/systemSetting/log');
    expect(search('用户')[0]?.path).toBe('/systemSetting/userManage');
  });

  it('does not match pinyin when it is off, and finds nothing for an empty query', () => {
    const search = createMenuSearch(buildSearchPages(PAGES));
    expect(search('yonghu')).toEqual([]);
    expect(search('  ')).toEqual([]);
  });

  it('matches English titles and paths fuzzily', () => {
    const search = createMenuSearch(buildSearchPages([{ path: '/systemSetting/userManage', titles: ['System Setting', 'User Manage'] }], undefined));
    expect(search('user mang')[0]?.path).toBe('/systemSetting/userManage');
    expect(search('userManage')[0]?.path).toBe('/systemSetting/userManage');
    expect(search('zzzz')).toEqual([]);
  });
});
