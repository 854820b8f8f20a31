import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, ReloadOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTabs, type VisitedView } from './tabs/store';
import { type TabActions, useTabActions } from './tabs/useTabActions';

/** Pixels of one wheel "line" when the browser reports the delta in lines. */
const LINE_PX = 40;

/**
 * How far the tab strip scrolls for a wheel event: a quarter of the wheel delta (spec
 * section 9, tags-view's scroll pane), taking whichever axis moved more.
 */
export function wheelScrollStep(event: Pick<WheelEvent, 'deltaX' | 'deltaY' | 'deltaMode'>, pageWidth = 800): number {
  const raw = Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.deltaY;
  const px = event.deltaMode === 1 ? raw * LINE_PX : event.deltaMode === 2 ? raw * pageWidth : raw;
  return px / 4;
}

type TabCommand = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

function contextItems(view: VisitedView, t: (key: string) => string, onlyAffixBesides: boolean): MenuProps['items'] {
  return [
    { key: 'refresh', icon: <ReloadOutlined />, label: t('tabs.refresh'), 'data-testid': 'tab-menu-refresh' },
    {
      key: 'close',
      icon: <CloseOutlined />,
      label: t('tabs.close'),
      disabled: Boolean(view.meta.affix),
      'data-testid': 'tab-menu-close',
    },
    { type: 'divider' },
    {
      key: 'closeOthers',
      icon: <ColumnWidthOutlined />,
      label: t('tabs.closeOthers'),
      disabled: onlyAffixBesides,
      'data-testid': 'tab-menu-close-others',
    },
    { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('tabs.closeAll'), 'data-testid': 'tab-menu-close-all' },
  ];
}

function runCommand(actions: TabActions, view: VisitedView, command: TabCommand): void {
  if (command === 'refresh') actions.refresh(view);
  else if (command === 'close') void actions.close(view);
  else if (command === 'closeOthers') void actions.closeOthers(view);
  else void actions.closeAll();
}

/** The tab elements of a strip, in order. */
function tabsOf(strip: HTMLElement | null): HTMLElement[] {
  return [...(strip?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
}

/** Where a key moves the focus in a strip of `count` tabs from `index` (null: not a move key). */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowRight' || key === 'ArrowDown') return (index + 1) % count;
  if (key === 'ArrowLeft' || key === 'ArrowUp') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

function Tab({
  view,
  actions,
  others,
  focusable,
  onClosed,
}: {
  view: VisitedView;
  actions: TabActions;
  others: boolean;
  /** In the strip's tab order (roving tabindex: the active tab, or the first when none is). */
  focusable: boolean;
  /** Called after the tab closed from the keyboard, to move the focus to a neighbour. */
  onClosed: (view: VisitedView) => void;
}) {
  const { t } = useTranslation(['shell', 'menu']);
  const active = actions.isActive(view);
  const title = view.meta.title ? t(view.meta.title, { ns: 'menu' }) : view.path;
  const closable = !view.meta.affix;
  return (
    <Dropdown
      trigger={['contextMenu']}
      destroyOnHidden
      menu={{
        items: contextItems(view, (key) => t(key), !others),
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          runCommand(actions, view, key as TabCommand);
        },
      }}
    >
      <div
        role="tab"
        tabIndex={focusable ? 0 : -1}
        aria-selected={active}
        aria-keyshortcuts={closable ? 'Delete' : undefined}
        className={`mq-tab${active ? ' is-active' : ''}`}
        data-testid={`tab-${view.path}`}
        data-active={active || undefined}
        title={title}
        onClick={() => actions.open(view)}
        onKeyDown={(e) => {
          const tabs = tabsOf(e.currentTarget.parentElement);
          const target = tabKeyTarget(e.key, tabs.indexOf(e.currentTarget), tabs.length);
          if (target !== null) {
            e.preventDefault();
            tabs[target]?.focus();
          } else if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            actions.open(view);
          } else if (e.key === 'Delete' && closable) {
            e.preventDefault();
            void actions.close(view).then(() => onClosed(view));
          }
        }}
        onMouseDown={(e) => {
          // Middle button: no autoscroll cursor, the tab closes on release.
          if (e.button === 1) e.preventDefault();
        }}
        onAuxClick={(e) => {
          if (e.button !== 1) return;
          e.preventDefault();
          if (closable) void actions.close(view);
        }}
      >
        <span className="mq-tab-dot" />
        <span className="mq-tab-title">{title}</span>
        {closable && (
          // A pointer target only: a button inside a tab is a nested control (axe
          // nested-interactive); the keyboard closes a tab with Delete (aria-keyshortcuts).
          <span
            className="mq-tab-close"
            aria-hidden="true"
            data-testid={`tab-close-${view.path}`}
            onClick={(e) => {
              e.stopPropagation();
              void actions.close(view);
            }}
          >
            <CloseOutlined />
          </span>
        )}
      </div>
    </Dropdown>
  );
}

/**
 * The page-tabs strip (spec section 2 "Tab bar"): one tab per visited page; a click opens it,
 * the close icon or a middle-click closes it (affix tabs have no close), a right-click offers
 * refresh, close, close others and close all, the wheel scrolls the strip sideways.
 * Keyboard (WAI-ARIA tabs): the strip is one stop in the tab order (the active tab); the arrow
 * keys, Home and End move between tabs, Enter or Space opens one, Delete closes it (not an
 * affix tab) and moves the focus to the tab now in its place.
 */
export default function TabBar() {
  const visitedViews = useTabs((s) => s.visitedViews);
  const actions = useTabActions();
  const stripRef = useRef<HTMLDivElement>(null);
  const { t } = useTranslation('shell');
  const activePath = visitedViews.find((v) => actions.isActive(v))?.path;

  useEffect(() => {
    if (!activePath) return;
    const strip = stripRef.current;
    const tab = tabsOf(strip).find((el) => el.dataset.testid === `tab-${activePath}`);
    tab?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activePath]);

  const closable = visitedViews.filter((v) => !v.meta.affix);
  const focusPath = activePath ?? visitedViews[0]?.path;

  /** After a keyboard close: focus the tab that took the closed one's place (or the last). */
  const focusAfterClose = (closed: VisitedView) => {
    const index = visitedViews.findIndex((v) => v.path === closed.path);
    requestAnimationFrame(() => {
      const tabs = tabsOf(stripRef.current);
      if (tabs.some((el) => el.dataset.testid === `tab-${closed.path}`)) return; // kept (leave tip cancelled)
      tabs[Math.min(index, tabs.length - 1)]?.focus();
    });
  };

  return (
    <div
      ref={stripRef}
      className="mq-tabs"
      role="tablist"
      aria-label={t('tabs.label')}
      data-testid="tab-bar"
      onWheel={(e) => {
        const strip = stripRef.current;
        if (strip) strip.scrollLeft += wheelScrollStep(e, strip.clientWidth);
      }}
    >
      {visitedViews.map((view) => (
        <Tab
          key={view.path}
          view={view}
          actions={actions}
          others={closable.some((v) => v.path !== view.path)}
          focusable={view.path === focusPath}
          onClosed={focusAfterClose}
        />
      ))}
    </div>
  );
}
