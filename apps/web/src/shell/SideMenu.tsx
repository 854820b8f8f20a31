import { EllipsisOutlined } from '@ant-design/icons';
import { findRoute, isMenuItemOnline, type MenuItem, resolveAlias } from '@marquee/protocol';
import { Dropdown, type MenuProps, Tag, Tooltip } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { MenuIcon } from '../components/MenuIcon';
import { PhraseText } from '../components/PhraseText';
import { prefetch } from '../components/prefetch';
import { useSession } from '../session/session';
import { activeMenuCode, filterMenu, menuIconName, visibleMenuCount } from './menu/filterMenu';
import { shellPageLoader } from './pages';

/** Height of one rail entry plus its gap (icon + two short title lines), as in shell.css. */
const ITEM_HEIGHT = 60;
/** The list's vertical padding (12 px) less the gap the last entry does not need (2 px). */
const LIST_CHROME = 10;
/** Spec section 9: resize handling is debounced by 500 ms. */
export const RESIZE_DEBOUNCE_MS = 500;

/** The height of an element, re-measured on window resize, debounced. */
function useDebouncedHeight(ref: React.RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const measure = () => setHeight(ref.current?.clientHeight ?? 0);
    measure();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(measure, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, [ref]);
  return height;
}

/** Fetches the code of the page behind a menu link ahead of the click (spec section 9). */
function prefetchPage(url: string): void {
  const route = findRoute(url);
  if (route && !route.plain) prefetch(shellPageLoader(route));
}

/**
 * The 80 px navigation rail (spec section 2 "Navigation menu behaviour"): the server's menu
 * filtered by permission, one entry per item with its icon and translated title; items with
 * children open a flyout submenu. Entries that do not fit the window height go to a "more"
 * flyout.
 */
export default function SideMenu() {
  const { t, i18n } = useTranslation(['menu', 'shell']);
  const navMenuList = useSession((s) => s.navMenuList);
  const permissionList = useSession((s) => s.permissionList);
  const logo = useSession((s) => s.logo);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const listRef = useRef<HTMLElement>(null);
  const height = useDebouncedHeight(listRef);

  const items = useMemo(() => filterMenu(navMenuList ?? [], permissionList ?? []), [navMenuList, permissionList]);
  const activeCode = activeMenuCode(items, pathname);
  // Before the first measurement every entry shows; jsdom and SSR have no layout.
  const count = height > 0 ? visibleMenuCount(items.length, height - LIST_CHROME, ITEM_HEIGHT) : items.length;
  const shown = items.slice(0, count);
  const overflow = items.slice(count);

  const title = (item: MenuItem) => t(item.code, { ns: 'menu' });
  /** A flyout label: the title, and a tag when the module is not online yet. */
  const label = (item: MenuItem) =>
    isMenuItemOnline(item) ? (
      title(item)
    ) : (
      <span className="mq-menu-offline">
        {title(item)}
        <Tag className="mq-not-online-tag">{t('shell:menu.notOnline')}</Tag>
      </span>
    );
  const childEntries = (children: readonly MenuItem[]): NonNullable<MenuProps['items']> =>
    children.map((child) => ({
      key: resolveAlias(child.url),
      label: label(child),
      'data-testid': `menu-${child.code}`,
    }));
  const onFlyoutClick: MenuProps['onClick'] = ({ key }) => navigate(key);

  return (
    <nav className="mq-side" aria-label={t('shell:menu.label')}>
      <Link to="/" className="mq-side-logo" aria-label={t('shell:brand.name')}>
        {logo ? <img src={logo} alt="" /> : <span className="mq-side-mark">M</span>}
      </Link>
      <ul className="mq-side-list" ref={listRef as React.RefObject<HTMLUListElement>}>
        {shown.map((item) => {
          const url = resolveAlias(item.url);
          // The rail entry opens its own page: marked when that page is not built, even when some
          // of its flyout's pages are (/report: the report pages are online, the section page not).
          const online = Boolean(findRoute(url)?.online);
          const entry = (
            <Link
              to={url}
              className={`mq-side-item${item.code === activeCode ? ' is-active' : ''}`}
              data-testid={`menu-${item.code}`}
              aria-current={item.code === activeCode ? 'page' : undefined}
              onPointerEnter={() => prefetchPage(url)}
              onFocus={() => prefetchPage(url)}
            >
              <span className="mq-side-icon">
                <MenuIcon code={item.code} name={menuIconName(item)} />
              </span>
              <span className="mq-side-title">
                <PhraseText text={title(item)} locale={i18n.language} />
              </span>
              {online ? null : (
                <span className="mq-side-offline" title={t('shell:menu.notOnline')}>
                  <span className="mq-sr-only">{t('shell:menu.notOnline')}</span>
                </span>
              )}
            </Link>
          );
          return (
            <li key={item.code}>
              {item.children?.length ? (
                <Dropdown
                  placement="rightTop"
                  classNames={{ root: 'mq-side-flyout' }}
                  menu={{
                    items: [{ type: 'group', key: 'group', label: title(item), children: childEntries(item.children) }],
                    selectedKeys: [pathname],
                    onClick: onFlyoutClick,
                  }}
                >
                  {entry}
                </Dropdown>
              ) : (
                <Tooltip
                  title={online ? title(item) : `${title(item)} · ${t('shell:menu.notOnline')}`}
                  placement="right"
                  mouseEnterDelay={0.6}
                >
                  {entry}
                </Tooltip>
              )}
            </li>
          );
        })}
        {overflow.length > 0 && (
          <li>
            <Dropdown
              placement="rightBottom"
              classNames={{ root: 'mq-side-flyout' }}
              menu={{
                items: overflow.map((item) =>
                  item.children?.length
                    ? {
                        key: `section:${item.code}`,
                        label: label(item),
                        icon: <MenuIcon code={item.code} name={menuIconName(item)} />,
                        children: childEntries(item.children),
                        'data-testid': `menu-${item.code}`,
                      }
                    : {
                        key: resolveAlias(item.url),
                        label: label(item),
                        icon: <MenuIcon code={item.code} name={menuIconName(item)} />,
                        'data-testid': `menu-${item.code}`,
                      },
                ),
                selectedKeys: [pathname],
                onClick: onFlyoutClick,
              }}
            >
              <button
                type="button"
                className={`mq-side-item${overflow.some((i) => i.code === activeCode) ? ' is-active' : ''}`}
                data-testid="menu-more"
              >
                <span className="mq-side-icon">
                  <EllipsisOutlined />
                </span>
                <span className="mq-side-title">{t('shell:menu.more')}</span>
              </button>
            </Dropdown>
          </li>
        )}
      </ul>
    </nav>
  );
}
