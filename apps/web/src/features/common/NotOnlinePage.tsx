import { RocketOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { currentHandle } from '../../components/routeHandle';

/** The page of every route whose module is not online yet: 'feature not online' and the route's title. */
export function NotOnlineResult({ extra }: { extra?: React.ReactNode }) {
  const { t } = useTranslation(['pages', 'menu']);
  const titleKey = currentHandle(useMatches())?.title;
  const title = titleKey ? t(titleKey, { ns: 'menu' }) : '';
  return (
    <Result
      icon={<RocketOutlined />}
      title={t('notOnline.title', { ns: 'pages' })}
      subTitle={title ? t('notOnline.description', { ns: 'pages', title }) : undefined}
      extra={extra}
    />
  );
}

export default function NotOnlinePage() {
  return (
    <div className="mq-view mq-not-online" data-testid="not-online">
      <NotOnlineResult />
    </div>
  );
}
