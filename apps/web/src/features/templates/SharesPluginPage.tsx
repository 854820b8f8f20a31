import { EyeOutlined, StockOutlined } from '@ant-design/icons';
import { createComponent, createEmptyLayout, fitScale, LayoutPage, shareSymbolSchema } from '@marquee/layout';
import { formatTime } from '@marquee/protocol';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Spin, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import './template.css';

const MAX_SYMBOLS = 20;
const EXAMPLE = ['600519.SH', '0700.HK', 'AAPL'];
const PREVIEW = { width: 640, height: 240 };
/** As screens ask (docs/device-protocol.md 2.7.7): the server keeps a quote 60 s. */
const REFRESH_MS = 60_000;

/** Symbols typed with commas (ASCII or CJK), spaces, new lines or semicolons; upper-cased, once each. */
export function parseSymbols(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,，、;；\s]+/)
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
}

function signed(n: number | null, suffix = ''): string {
  if (n === null) return '—';
  return `${n > 0 ? '+' : ''}${n.toFixed(2)}${suffix}`;
}

/**
 * /template/plugins/shares: the data source of layouts' share-price components (issue 31). It
 * says which provider the server is configured with (SHARES_PROVIDER; without one, share-price
 * components show nothing, never invented prices) and previews chosen symbols as a screen draws
 * them, with the quotes behind them, refreshed every minute like the screens.
 */
export default function SharesPluginPage() {
  const { t, i18n } = useTranslation('templates');
  const [text, setText] = useState(EXAMPLE.join(', '));
  const [symbols, setSymbols] = useState<string[]>(EXAMPLE);
  const typed = parseSymbols(text);
  const invalid = typed.filter((s) => !shareSymbolSchema.safeParse(s).success);
  const tooMany = typed.length > MAX_SYMBOLS;
  const error = tooMany
    ? t('shares.tooMany', { max: MAX_SYMBOLS })
    : invalid.length
      ? t('shares.invalid', { symbols: invalid.join(', ') })
      : null;
  const quotes = useCallQuery('sharesQuotes', { symbols }, { refetchInterval: REFRESH_MS, keepPrevious: true });
  const provider = quotes.data?.provider;
  const rows = quotes.data ? symbols.map((symbol) => ({ symbol, quote: quotes.data.quotes[symbol] ?? null })) : [];
  const doc = useMemo(() => {
    const d = createEmptyLayout({ width: PREVIEW.width, height: PREVIEW.height });
    d.pages[0].background.color = '#000000';
    d.pages[0].components.push(
      createComponent('shares', {
        id: 'preview',
        x: 0,
        y: 0,
        w: PREVIEW.width,
        h: PREVIEW.height,
        props: { symbols, color: '#ffffff', fontSize: 28 },
      }),
    );
    return d;
  }, [symbols]);
  return (
    <div className="mq-view mq-shares-plugin" data-testid="shares-plugin">
      <Card title={t('shares.title')}>
        <Typography.Paragraph type="secondary">{t('shares.intro')}</Typography.Paragraph>
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('shares.provider')}>
            {quotes.isLoading ? (
              <Spin size="small" />
            ) : provider ? (
              <Tag color="blue" icon={<StockOutlined />} data-testid="shares-provider">
                {provider}
              </Tag>
            ) : (
              <Tag data-testid="shares-provider">{t('shares.none')}</Tag>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('shares.setting')}>
            <Typography.Text code>SHARES_PROVIDER=http</Typography.Text>
            <Typography.Text code>SHARES_URL</Typography.Text>
            <Typography.Text code>SHARES_KEY</Typography.Text>
          </Descriptions.Item>
        </Descriptions>
        {quotes.data && !provider ? (
          <Alert
            type="info"
            showIcon
            message={t('shares.noneTitle')}
            description={t('shares.noneHint')}
            data-testid="shares-none"
          />
        ) : null}
      </Card>
      <Card title={t('shares.preview')}>
        <Form
          layout="vertical"
          onFinish={() => {
            if (typed.length > 0 && !error) setSymbols(typed);
          }}
        >
          <Form.Item
            label={t('shares.symbols')}
            validateStatus={error ? 'error' : undefined}
            help={error ?? t('shares.symbolsHint')}
          >
            <Input.TextArea
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoSize={{ minRows: 2, maxRows: 6 }}
              maxLength={500}
              placeholder={EXAMPLE.join(', ')}
              aria-label={t('shares.symbols')}
              data-testid="shares-symbols"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<EyeOutlined />}
            disabled={typed.length === 0 || !!error}
            loading={quotes.isFetching}
            data-testid="shares-show"
          >
            {t('shares.show')}
          </Button>
        </Form>
        <div
          className="mq-shares-preview"
          style={{
            ...PREVIEW,
            maxWidth: '100%',
            marginTop: 16,
            position: 'relative',
            overflow: 'hidden',
            background: '#000',
          }}
          data-testid="shares-screen"
        >
          <LayoutPage
            doc={doc}
            page={0}
            materials={{}}
            scale={fitScale(doc, PREVIEW.width, PREVIEW.height)}
            locale={i18n.language}
            shares={quotes.data?.quotes}
            playing
          />
        </div>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('shares.previewHint')}
        </Typography.Paragraph>
        {provider ? (
          <Table
            size="small"
            rowKey="symbol"
            pagination={false}
            dataSource={rows}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            columns={[
              { title: t('shares.symbol'), dataIndex: 'symbol' },
              { title: t('shares.name'), render: (_, r) => r.quote?.name ?? '—' },
              {
                title: t('shares.price'),
                render: (_, r) =>
                  r.quote ? (
                    `${r.quote.price.toFixed(2)}${r.quote.currency ? ` ${r.quote.currency}` : ''}`
                  ) : (
                    <Typography.Text type="secondary">{t('shares.unknownSymbol')}</Typography.Text>
                  ),
              },
              {
                title: t('shares.change'),
                render: (_, r) => (r.quote ? `${signed(r.quote.change)} (${signed(r.quote.changePercent, '%')})` : '—'),
              },
              {
                title: t('shares.time'),
                render: (_, r) =>
                  r.quote ? (
                    <>
                      {formatTime(r.quote.time)} {r.quote.stale ? <Tag color="orange">{t('shares.stale')}</Tag> : null}
                    </>
                  ) : (
                    '—'
                  ),
              },
            ]}
            data-testid="shares-quotes"
          />
        ) : null}
      </Card>
    </div>
  );
}
