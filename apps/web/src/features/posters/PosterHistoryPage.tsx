import { DownloadOutlined } from '@ant-design/icons';
import { formatTime, type PosterMade } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Image, Pagination, Select, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { posterKeys } from './queries';
import './poster.css';

const PAGE_SIZE = 20;

/**
 * Posters made (/poster/tplHistory): per template (filter kept in the URL) or all the caller
 * sees, newest first, each with its image (signed URL), field values, maker and time.
 */
export default function PosterHistoryPage() {
  const { t } = useTranslation('posters');
  const [params, setParams] = useSearchParams();
  const templateId = params.get('templateId') ?? undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);

  const templates = useQuery({
    queryKey: posterKeys.page({ page: 1, size: 100, name: '' }),
    queryFn: ({ signal }) => call('posterTemplatePage', { page: 1, size: 100 }, { signal }),
  });
  const history = useQuery({
    queryKey: posterKeys.history({ templateId, page }),
    queryFn: ({ signal }) => call('posterHistory', { page, size: PAGE_SIZE, templateId }, { signal }),
    placeholderData: keepPreviousData,
  });

  const setFilter = (next: { templateId?: string; page?: number }) => {
    const p = new URLSearchParams();
    const id = 'templateId' in next ? next.templateId : templateId;
    if (id) p.set('templateId', id);
    if (next.page && next.page > 1) p.set('page', String(next.page));
    setParams(p);
  };

  const data = history.data?.data ?? [];
  return (
    <div className="mq-view mq-poster-history" data-testid="poster-history">
      <Card>
        <Space wrap>
          <Typography.Text>{t('history.template')}</Typography.Text>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 280 }}
            placeholder={t('history.allTemplates')}
            aria-label={t('history.template')}
            loading={templates.isPending}
            value={templateId}
            onChange={(v: string | undefined) => setFilter({ templateId: v, page: 1 })}
            options={(templates.data?.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
            data-testid="poster-history-template"
          />
        </Space>
      </Card>
      <Card title={t('history.title')} extra={t('history.total', { count: history.data?.total ?? 0 })}>
        {history.isPending ? (
          <Spin />
        ) : data.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />
        ) : (
          <Image.PreviewGroup>
            <div className="mq-poster-history-grid">
              {data.map((p: PosterMade) => (
                <Card
                  key={p.id}
                  size="small"
                  className="mq-poster-history-card"
                  data-testid={`poster-history-item-${p.id}`}
                  cover={<Image src={p.url} alt={p.templateName} className="mq-poster-history-image" />}
                >
                  <Typography.Text strong ellipsis>
                    {p.templateName}
                  </Typography.Text>
                  <div className="mq-poster-history-fields">
                    {Object.entries(p.fields).map(([k, v]) => (
                      <Typography.Text key={k} type="secondary" ellipsis title={v}>
                        {v || '—'}
                      </Typography.Text>
                    ))}
                  </div>
                  <Space size={4} wrap>
                    <Tag>{p.format.toUpperCase()}</Tag>
                    <Tag>
                      {p.width} × {p.height}
                    </Tag>
                    {p.materialId ? (
                      <Tag color="blue" data-testid={`poster-history-library-${p.id}`}>
                        {t('history.inLibrary')}
                      </Tag>
                    ) : null}
                  </Space>
                  <Typography.Text type="secondary" className="mq-poster-history-meta">
                    {t('history.by', { name: p.makerName, time: formatTime(p.createdAt) })}
                  </Typography.Text>
                  <a href={p.url} download={`${p.templateName}.${p.format === 'png' ? 'png' : 'jpg'}`}>
                    <DownloadOutlined /> {t('history.download')}
                  </a>
                </Card>
              ))}
            </div>
          </Image.PreviewGroup>
        )}
        {(history.data?.total ?? 0) > PAGE_SIZE && (
          <Pagination
            className="mq-poster-history-pager"
            current={page}
            pageSize={PAGE_SIZE}
            total={history.data?.total ?? 0}
            showSizeChanger={false}
            onChange={(p) => setFilter({ page: p })}
          />
        )}
      </Card>
    </div>
  );
}
