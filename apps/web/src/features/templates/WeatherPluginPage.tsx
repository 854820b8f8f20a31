import { CloudOutlined, SearchOutlined } from '@ant-design/icons';
import { formatTime } from '@marquee/protocol';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import './template.css';

const MAX_CITIES = 20;

/** Cities typed with commas (ASCII or CJK), newlines or semicolons; duplicates once. */
export function parseCities(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,，、;；\n]/)
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * /template/plugins/weather: the data source of layouts' weather components. It says which
 * provider the server is configured with (WEATHER_PROVIDER; without one, weather components
 * say their data is unavailable, never made-up values) and checks cities against it: what a
 * screen would show for each, or that the provider does not know it.
 */
export default function WeatherPluginPage() {
  const { t } = useTranslation('templates');
  const [text, setText] = useState('');
  const cities = parseCities(text);
  const tooMany = cities.length > MAX_CITIES;
  // A check, not a change: the readings are the answer (what it invalidates, weather reads, is current anyway).
  const check = useCallMutation('weatherCurrent');
  const provider = check.data?.provider;
  const rows = check.data ? Object.entries(check.data.readings).map(([city, reading]) => ({ city, reading })) : [];
  return (
    <div className="mq-view mq-weather-plugin" data-testid="weather-plugin">
      <Card title={t('weather.title')}>
        <Typography.Paragraph type="secondary">{t('weather.intro')}</Typography.Paragraph>
        <Form
          layout="vertical"
          onFinish={() => {
            if (cities.length > 0 && !tooMany) check.mutate({ cities });
          }}
        >
          <Form.Item
            label={t('weather.cities')}
            validateStatus={tooMany ? 'error' : undefined}
            help={tooMany ? t('weather.tooMany', { max: MAX_CITIES }) : t('weather.citiesHint')}
          >
            <Input.TextArea
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoSize={{ minRows: 2, maxRows: 6 }}
              maxLength={2000}
              placeholder={t('weather.citiesPlaceholder')}
              aria-label={t('weather.cities')}
              data-testid="weather-cities"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SearchOutlined />}
            loading={check.isPending}
            disabled={cities.length === 0 || tooMany}
            data-testid="weather-check"
          >
            {t('weather.check')}
          </Button>
        </Form>
      </Card>
      {check.data ? (
        <Card title={t('weather.source')} data-testid="weather-result">
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('weather.provider')}>
              {provider ? (
                <Tag color="blue" icon={<CloudOutlined />} data-testid="weather-provider">
                  {provider}
                </Tag>
              ) : (
                <Tag data-testid="weather-provider">{t('weather.none')}</Tag>
              )}
            </Descriptions.Item>
          </Descriptions>
          {provider ? null : (
            <Alert type="info" showIcon message={t('weather.noneTitle')} description={t('weather.noneHint')} />
          )}
          {provider ? (
            <Table
              size="small"
              rowKey="city"
              pagination={false}
              dataSource={rows}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
              columns={[
                { title: t('weather.city'), dataIndex: 'city' },
                {
                  title: t('weather.reading'),
                  render: (_, r) =>
                    r.reading ? (
                      `${Math.round(r.reading.temperature)} °C · ${r.reading.condition}`
                    ) : (
                      <Typography.Text type="secondary">{t('weather.unknownCity')}</Typography.Text>
                    ),
                },
                {
                  title: t('weather.range'),
                  render: (_, r) =>
                    r.reading?.low != null && r.reading?.high != null
                      ? `${Math.round(r.reading.low)} ~ ${Math.round(r.reading.high)} °C`
                      : '—',
                },
                {
                  title: t('weather.humidity'),
                  render: (_, r) => (r.reading?.humidity != null ? `${Math.round(r.reading.humidity)} %` : '—'),
                },
                {
                  title: t('weather.observedAt'),
                  render: (_, r) => (r.reading?.observedAt ? formatTime(r.reading.observedAt) : '—'),
                },
              ]}
              data-testid="weather-readings"
            />
          ) : null}
        </Card>
      ) : null}
    </div>
  );
}
