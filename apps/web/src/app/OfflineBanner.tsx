import { Alert } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const isOnline = () => navigator.onLine;

/** Spec sections 1, 2, 8: a persistent error banner while the network is offline, on every layout. */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  const { t } = useTranslation('common');
  if (online) return null;
  return (
    <div className="mq-offline-banner" role="alert" data-testid="offline-banner">
      <Alert type="error" showIcon title={t('offline.banner')} />
    </div>
  );
}
