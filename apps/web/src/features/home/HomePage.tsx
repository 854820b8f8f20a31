import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  DesktopOutlined,
  DisconnectOutlined,
  LayoutOutlined,
  ReadOutlined,
  ReloadOutlined,
  RightOutlined,
  ShareAltOutlined,
  ShopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import {
  findRoute,
  isMenuItemOnline,
  type MenuItem,
  resolveAlias,
  STAT_FIGURES,
  STAT_KEYS,
  type StatKey,
  TREND_DAYS,
  type TrendPoint,
} from '@marquee/protocol';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Skeleton, Tag } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { MenuIcon } from '../../components/MenuIcon';
import { useSession } from '../../session/session';
import { useCan } from '../../session/useCan';

import './home.css';

const TrendChart = lazy(() => import('./TrendChart'));

/** Greeting key by the hour of the day. */
export function greetingKey(hour: number): string {
  if (hour < 12) return 'home.greeting.morning';
  if (hour < 18) return 'home.greeting.afternoon';
  return 'home.greeting.evening';
}

/** Icons of the count figures; a figure a module adds later shows without one until it adds its own. */
const FIGURE_ICONS: Partial<Record<StatKey, React.ReactNode>> = {
  accounts: <TeamOutlined />,
  departments: <ApartmentOutlined />,
  templates: <LayoutOutlined />,
  sharedWithMe: <ShareAltOutlined />,
  devicesOnline: <DesktopOutlined />,
  devicesOffline: <DisconnectOutlined />,
  warningsOpen: <AlertOutlined />,
  slots: <AppstoreOutlined />,
  goodsListed: <ShopOutlined />,
  helpDocs: <ReadOutlined />,
};

/** The page a figure links to, when the user may open it and its module is online. */
function useFigureLink(): (key: StatKey) => { to: string | null; online: boolean } {
  const can = useCan();
  return (key) => {
    const route = findRoute(STAT_FIGURES[key].route);
    const online = Boolean(route?.online);
    return { to: route && online && can(route.permission) ? route.path : null, online };
  };
}

function NotOnlineTag() {
  const { t } = useTranslation('shell');
  return <Tag className="mq-not-online-tag">{t('menu.notOnline')}</Tag>;
}

/** Whether a figure belongs to a section (its page is under `within`); every figure without one. */
const inSection = (key: StatKey, within?: string) =>
  !within || STAT_FIGURES[key].route === within || STAT_FIGURES[key].route.startsWith(`${within}/`);

/** The count figures: one card each, linking to its page. */
function FigureCards({ figures, within }: { figures: Partial<Record<string, number>>; within?: string }) {
  const { t } = useTranslation('pages');
  const linkOf = useFigureLink();
  const keys = STAT_KEYS.filter(
    (k) => STAT_FIGURES[k].kind === 'count' && figures[k] !== undefined && inSection(k, within),
  );
  return (
    <Row gutter={[16, 16]} className="mq-home-figures">
      {keys.map((key) => {
        const { to, online } = linkOf(key);
        const body = (
          <>
            <span className="mq-home-figure-icon" aria-hidden>
              {FIGURE_ICONS[key]}
            </span>
            <span className="mq-home-figure-text">
              <span className="mq-home-figure-label">{t(`home.stats.${key}`)}</span>
              <span className="mq-home-figure-value" data-testid={`home-figure-${key}`}>
                {(figures[key] ?? 0).toLocaleString()}
              </span>
            </span>
            {to ? <RightOutlined className="mq-home-figure-go" aria-hidden /> : online ? null : <NotOnlineTag />}
          </>
        );
        return (
          <Col key={key} xs={12} md={8} xl={6}>
            <Card size="small" className="mq-home-figure">
              {to ? (
                <Link to={to} className="mq-home-figure-body">
                  {body}
                </Link>
              ) : (
                <div className="mq-home-figure-body">{body}</div>
              )}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

/** The operations trend: a bar per day, with the total; an empty state when nothing happened. */
function TrendCard({ figure, points }: { figure: StatKey; points: TrendPoint[] }) {
  const { t } = useTranslation('pages');
  const { to } = useFigureLink()(figure);
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const title = t(`home.trend.${figure}`, { days: TREND_DAYS });
  return (
    <Card
      className="mq-home-trend"
      title={title}
      extra={
        to ? (
          <Link to={to}>
            {t('home.trend.total', { count: total })} <RightOutlined />
          </Link>
        ) : (
          <span className="mq-home-secondary">{t('home.trend.total', { count: total })}</span>
        )
      }
    >
      {total === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t(`home.trendEmpty.${figure}`, { days: TREND_DAYS })}
        />
      ) : (
        <Suspense fallback={<div className="mq-home-chart" />}>
          <TrendChart points={points} label={title} figure={figure} />
        </Suspense>
      )}
    </Card>
  );
}

/**
 * Quick statistics (spec section 7): what the user may see, computed by the server in its
 * scope; `within` keeps a section's figures (its section page), `empty` shows when it has none.
 */
export function Statistics({ within, empty }: { within?: string; empty?: React.ReactNode } = {}) {
  const { t } = useTranslation('pages');
  // A switch of enterprise or department reloads the console: the figures of the new scope.
  const stats = useCallQuery('homeStats', { utcOffset: 0 - new Date().getTimezoneOffset() }, { silent: true });
  if (stats.isPending) {
    return (
      <div data-testid="home-stats-loading" aria-busy>
        <Row gutter={[16, 16]} className="mq-home-figures">
          {[0, 1, 2, 3].map((i) => (
            <Col key={i} xs={12} md={8} xl={6}>
              <Card size="small">
                <Skeleton active paragraph={false} title={{ width: '60%' }} />
              </Card>
            </Col>
          ))}
        </Row>
      </div>
    );
  }
  if (stats.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        className="mq-home-alert"
        title={t('home.stats.failed')}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void stats.refetch()}>
            {t('home.stats.retry')}
          </Button>
        }
      />
    );
  }
  const { figures, trends } = stats.data;
  const trendKeys = STAT_KEYS.filter((k) => STAT_FIGURES[k].kind === 'trend' && trends[k] && inSection(k, within));
  if (empty && trendKeys.length === 0 && !STAT_KEYS.some((k) => figures[k] !== undefined && inSection(k, within))) {
    return <>{empty}</>;
  }
  return (
    <>
      <FigureCards figures={figures} within={within} />
      {trendKeys.map((key) => (
        <TrendCard key={key} figure={key} points={trends[key] ?? []} />
      ))}
    </>
  );
}

export function PageLink({ item }: { item: MenuItem }) {
  const { t } = useTranslation('menu');
  return (
    <span className="mq-menu-offline">
      <Link to={resolveAlias(item.url)}>{t(item.code)}</Link>
      {isMenuItemOnline(item) ? null : <NotOnlineTag />}
    </span>
  );
}

function SectionCard({ item }: { item: MenuItem }) {
  const { t } = useTranslation(['menu', 'pages']);
  const children = item.children ?? [];
  return (
    <Card
      className="mq-home-section"
      title={
        <Link to={item.url} className="mq-home-section-title">
          <span className="mq-home-section-icon" aria-hidden>
            <MenuIcon code={item.code} name={item.icon ?? item.code} />
          </span>
          {t(item.code, { ns: 'menu' })}
        </Link>
      }
      extra={
        isMenuItemOnline(item) ? (
          <span className="mq-home-secondary">{t('home.section.pages', { ns: 'pages', count: children.length })}</span>
        ) : (
          <NotOnlineTag />
        )
      }
    >
      <ul className="mq-home-links">
        {children.map((child) => (
          <li key={child.url}>
            <PageLink item={child} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

/**
 * The home page (route `/`): a greeting, the quick statistics (cards of real figures, each
 * linking to its page, and the operations trend), the account and its enterprise by name,
 * and the sections the user can open, those of modules not online yet marked so. Sections
 * without sub-pages share one card: no card is empty.
 *
 * Headings and muted text are plain elements styled with antd's tokens (global.css), not
 * antd's Typography: Typography brings its editable mode, and with it antd's TextArea, into
 * the first page every user opens.
 */
export default function HomePage() {
  const { t } = useTranslation('pages');
  const s = useSession();
  const name = s.userName || s.loginName;
  const sections = s.navMenuList.filter((item) => item.url !== '/');
  const withPages = sections.filter((item) => item.children?.length);
  const single = sections.filter((item) => !item.children?.length);
  const welcome = s.isYXF ? t('home.welcome.provider') : s.welcomeSpeech;
  const accountType = s.thirdMonitorUser
    ? t('home.accountType.monitor')
    : s.isYXF
      ? t('home.accountType.provider')
      : t('home.accountType.enterprise');

  return (
    <div className="mq-view mq-home" data-testid="home-page">
      <section className="mq-home-hero">
        {s.logo ? <img className="mq-home-logo" src={s.logo} alt="" /> : null}
        <div>
          <h3 className="mq-home-heading mq-home-greeting">{t(greetingKey(new Date().getHours()), { name })}</h3>
          {welcome ? <p className="mq-home-secondary mq-home-welcome">{welcome}</p> : null}
        </div>
      </section>

      {s.updatePwd ? <Alert type="warning" showIcon title={t('home.updatePwd')} className="mq-home-alert" /> : null}

      <Statistics />

      <Card title={t('home.profile')} className="mq-home-profile">
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={t('home.account')}>{s.loginName}</Descriptions.Item>
          <Descriptions.Item label={t('home.userName')}>{s.userName}</Descriptions.Item>
          <Descriptions.Item label={t('home.accountType')}>
            <Tag>{accountType}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('home.enterprise')}>
            <span data-testid="home-enterprise">{s.entName}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('home.department')}>{s.deptName}</Descriptions.Item>
        </Descriptions>
      </Card>

      <h4 className="mq-home-heading mq-home-sections-title">{t('home.sections')}</h4>
      {sections.length > 0 ? (
        <Row gutter={[16, 16]}>
          {withPages.map((item) => (
            <Col key={item.url} xs={24} md={12} xl={8}>
              <SectionCard item={item} />
            </Col>
          ))}
          {single.length > 0 ? (
            <Col xs={24} md={12} xl={8}>
              <Card className="mq-home-section" title={t('home.sections.more')}>
                <ul className="mq-home-links">
                  {single.map((item) => (
                    <li key={item.url}>
                      <PageLink item={item} />
                    </li>
                  ))}
                </ul>
              </Card>
            </Col>
          ) : null}
        </Row>
      ) : (
        <Empty description={t('home.sections.empty')} />
      )}
    </div>
  );
}
