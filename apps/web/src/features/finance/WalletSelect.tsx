import { formatFen, type Wallet } from '@marquee/protocol';
import { Select, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { walletLabel } from './look';

/**
 * The wallet the finance centre shows, for a caller who sees several (the platform operator:
 * every wallet and the platform's accounts; an enterprise administrator: its advertisers'):
 * searched on the server by name, each option with its available balance and a low tag.
 */
export function WalletSelect({
  value,
  current,
  onChange,
}: {
  value: string | undefined;
  /** The wallet shown now (kept as an option while a search does not list it). */
  current: Wallet | undefined;
  onChange: (walletId: string) => void;
}) {
  const { t, i18n } = useTranslation('finance');
  const [keyword, setKeyword] = useState('');
  // The server is asked once the typing pauses.
  const [deferred, setDeferred] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDeferred(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const wallets = useCallQuery(
    'financeWallets',
    { page: 1, size: 50, ...(deferred ? { keyword: deferred } : {}) },
    { keepPrevious: true, staleTime: 30_000 },
  );
  const data = wallets.data?.data ?? [];
  const list = current && !data.some((w) => w.id === current.id) ? [current, ...data] : data;
  return (
    <Select
      value={value ?? current?.id}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      onChange={(id: string) => {
        setKeyword('');
        onChange(id);
      }}
      loading={wallets.isFetching}
      placeholder={t('wallet.placeholder')}
      aria-label={t('wallet.label')}
      style={{ width: 320 }}
      popupMatchSelectWidth={380}
      notFoundContent={wallets.isFetching ? null : t('wallet.none')}
      data-testid="finance-wallet"
      options={list.map((w) => ({
        value: w.id,
        label: walletLabel(t, w),
        wallet: w,
      }))}
      optionRender={(option) => {
        const w = (option.data as { wallet: Wallet }).wallet;
        return (
          <div className="mq-finance-wallet-option" data-testid="finance-wallet-option">
            <span className="mq-finance-wallet-name">
              <Tag variant="filled">{t(`walletKind.${w.kind}`)}</Tag>
              {walletLabel(t, w)}
            </span>
            <span className="mq-finance-wallet-available">
              {w.low ? (
                <Tag color="warning" variant="filled">
                  {t('wallet.low')}
                </Tag>
              ) : null}
              {formatFen(w.available, i18n.language)}
            </span>
          </div>
        );
      }}
    />
  );
}

/** Whether the caller sees more than one wallet (then the selector and whose-columns show). */
export function useSeesSeveralWallets(): boolean {
  const wallets = useCallQuery('financeWallets', { page: 1, size: 10 }, { staleTime: 30_000, silent: true });
  return (wallets.data?.total ?? 0) > 1;
}
