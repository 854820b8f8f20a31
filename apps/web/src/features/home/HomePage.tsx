import { RightOutlined } from '@ant-design/icons';
import type { MenuItem } from '@marquee/protocol';
import { Alert, Card, Col, Descriptions, Empty, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MenuIcon } from '../../components/MenuIcon';
import { useSession } from '../../session/session';

/** Greeting key by the hour of the day. */
export function greetingKey(hour: number): string {
  if (hour < 12) return 'home.greeting.morning';
  if (hour < 18) return 'home.greeting.afternoon';
  return 'home.greeting.evening';
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
        children.length > 0 ? (
          <span className="mq-home-secondary">{t('home.section.pages', { ns: 'pages', count: children.length })}</span>
        ) : (
          <Link to={item.url} aria-label={t(item.code, { ns: 'menu' })}>
            <RightOutlined />
          </Link>
        )
      }
    >
      {children.length > 0 ? (
        <ul className="mq-home-links">
          {children.map((child) => (
            <li key={child.url}>
              <Link to={child.url}>{t(child.code, { ns: 'menu' })}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

/**
 * The home page (route `/`): what the session knows — a greeting, the account, the
 * enterprise and current department, and a card for every section the user can open,
 * taken from the menu the server sent at login. No made-up figures.
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

      <Card title={t('home.profile')} className="mq-home-profile">
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={t('home.account')}>{s.loginName}</Descriptions.Item>
          <Descriptions.Item label={t('home.userName')}>{s.userName}</Descriptions.Item>
          <Descriptions.Item label={t('home.accountType')}>
            <Tag>{accountType}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('home.enterprise')}>{s.entId}</Descriptions.Item>
          <Descriptions.Item label={t('home.department')}>{s.deptName}</Descriptions.Item>
          <Descriptions.Item label={t('home.permissions')}>{s.permissionList.length}</Descriptions.Item>
        </Descriptions>
      </Card>

      <h4 className="mq-home-heading mq-home-sections-title">{t('home.sections')}</h4>
      {sections.length > 0 ? (
        <Row gutter={[16, 16]}>
          {sections.map((item) => (
            <Col key={item.url} xs={24} md={12} xl={8}>
              <SectionCard item={item} />
            </Col>
          ))}
        </Row>
      ) : (
        <Empty description={t('home.sections.empty')} />
      )}
    </div>
  );
}
