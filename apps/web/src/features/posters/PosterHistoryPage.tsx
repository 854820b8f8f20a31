import { DownloadOutlined } from '@ant-design/icons';
import { formatTime, type PosterMade } from '@marquee/protocol';
import { Card, Empty, Image, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { ListPage, useListPage } from '../../components/listPage';
import './poster.css';

/** One poster made: its image, field values, format, size, maker and time, and a download. */
function PosterCard({ poster: p }: { poster: PosterMade }) {
  const { t } = useTranslation('posters');
  return (
    <Card
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
  );
}

/**
 * Posters made (/poster/tplHistory): per template (filter kept in the URL) or all the caller
 * sees, newest first, each with its image (signed URL), field values, maker and time.
 */
export default function PosterHistoryPage() {
  const { t } = useTranslation('posters');
  const templates = useCallQuery('posterTemplatePage', { page: 1, size: 100 });

  const list = useListPage({
    id: 'posterHistory',
    endpoint: 'posterHistory',
    defaultSize: 20,
    filters: [
      {
        key: 'templateId',
        kind: 'select',
        label: t('history.template'),
        placeholder: t('history.allTemplates'),
        showSearch: true,
        width: 280,
        loading: templates.isPending,
        options: (templates.data?.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name })),
        testId: 'poster-history-template',
      },
    ],
    columns: [],
  });

  const data = list.query.data?.data ?? [];
  return (
    <ListPage
      list={list}
      testId="poster-history"
      className="mq-poster-history"
      title={t('history.title')}
      showTotal={(total) => t('history.total', { count: total })}
      body={
        list.query.isPending ? (
          <Spin />
        ) : data.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />
        ) : (
          <Image.PreviewGroup>
            <div className="mq-poster-history-grid">
              {data.map((p) => (
                <PosterCard key={p.id} poster={p} />
              ))}
            </div>
          </Image.PreviewGroup>
        )
      }
    />
  );
}
