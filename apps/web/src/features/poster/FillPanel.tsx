import { ArrowLeftOutlined, DownloadOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import {
  fillPoster,
  type PosterFieldValues,
  type PosterFormat,
  type PosterMade,
  type PosterTemplate,
  posterFields,
} from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Form, Input, Radio, Space, Typography } from 'antd';
import type Konva from 'konva';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { makePosterImage } from './exportPoster';
import { PosterCanvas } from './PosterCanvas';
import { posterKeys } from './queries';

/**
 * Fill mode (/poster/editor?id=&mode=fill): a form with the template's fields beside the
 * poster, which follows every keystroke; then the poster is drawn at full size as PNG or
 * JPEG, uploaded and recorded ('image generation failed' when that fails).
 */
export function FillPanel({ template }: { template: PosterTemplate }) {
  const { t } = useTranslation(['poster', 'errors']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fields = useMemo(() => posterFields(template.document), [template.document]);
  const [values, setValues] = useState<PosterFieldValues>(() =>
    Object.fromEntries(fields.map((f) => [f.field.key, f.value])),
  );
  const [format, setFormat] = useState<PosterFormat>('png');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<PosterMade | null>(null);
  const stageRef = useRef<Konva.Stage>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(0.5);
  const doc = useMemo(() => fillPoster(template.document, values), [template.document, values]);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const z = Math.min((el.clientWidth - 48) / template.width, (el.clientHeight - 48) / template.height);
    setZoom(Math.max(0.02, Math.min(2, Math.floor(z * 100) / 100)));
  }, [template.width, template.height]);

  const make = async () => {
    const stage = stageRef.current;
    if (!stage) return;
    setBusy(true);
    setMade(null);
    try {
      const result = await makePosterImage(stage, {
        templateId: template.id,
        width: template.width,
        height: template.height,
        format,
        fields: values,
      });
      setMade(result);
      message.success(t('fill.made'));
      void queryClient.invalidateQueries({ queryKey: posterKeys.all });
    } catch (error) {
      // Server answers were shown by the API client; a drawing or upload failure is shown here.
      if (!(error instanceof ApiError && error.kind === 'server'))
        message.error(t('imageGenerationFailed', { ns: 'poster' }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mq-view mq-poster-editor mq-poster-fill" data-testid="poster-fill">
      <div className="mq-poster-toolbar">
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/poster')}>
            {t('editor.backToList')}
          </Button>
          <Typography.Text strong>{template.name}</Typography.Text>
          <Typography.Text type="secondary">
            {template.width} × {template.height}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Button icon={<EditOutlined />} onClick={() => navigate(`/poster/editor?id=${template.id}`)}>
            {t('list.edit')}
          </Button>
          <Button icon={<HistoryOutlined />} onClick={() => navigate(`/poster/tplHistory?templateId=${template.id}`)}>
            {t('fill.history')}
          </Button>
        </Space>
      </div>
      <div className="mq-poster-body">
        <aside className="mq-poster-fill-form">
          <Typography.Title level={5}>{t('fill.title')}</Typography.Title>
          {fields.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fill.noFields')} />
          ) : (
            <Form layout="vertical">
              {fields.map((f) => (
                <Form.Item
                  key={f.field.key}
                  label={f.field.label}
                  extra={f.type === 'image' ? t('props.srcHint') : undefined}
                >
                  {f.type === 'text' ? (
                    <Input.TextArea
                      autoSize={{ minRows: 1, maxRows: 6 }}
                      maxLength={2000}
                      value={values[f.field.key]}
                      onChange={(e) => setValues((v) => ({ ...v, [f.field.key]: e.target.value }))}
                      data-testid={`poster-fill-${f.field.key}`}
                    />
                  ) : (
                    <Input
                      maxLength={2000}
                      placeholder={f.type === 'image' ? 'https://' : undefined}
                      value={values[f.field.key]}
                      onChange={(e) => setValues((v) => ({ ...v, [f.field.key]: e.target.value }))}
                      data-testid={`poster-fill-${f.field.key}`}
                    />
                  )}
                </Form.Item>
              ))}
            </Form>
          )}
          <Form layout="vertical">
            <Form.Item label={t('fill.format')}>
              <Radio.Group
                value={format}
                onChange={(e) => setFormat(e.target.value)}
                options={[
                  { value: 'png', label: 'PNG' },
                  { value: 'jpeg', label: 'JPEG' },
                ]}
                data-testid="poster-fill-format"
              />
            </Form.Item>
          </Form>
          <Button type="primary" block loading={busy} onClick={() => void make()} data-testid="poster-make">
            {t('fill.make')}
          </Button>
          <Typography.Paragraph type="secondary" className="mq-poster-fill-note">
            {t('fill.note', { width: template.width, height: template.height })}
          </Typography.Paragraph>
          {made && (
            <Alert
              type="success"
              showIcon
              data-testid="poster-made"
              title={t('fill.madeTitle')}
              description={
                <Space direction="vertical">
                  <img src={made.url} alt={template.name} className="mq-poster-made-thumb" />
                  <Space>
                    <a href={made.url} download={`${template.name}.${made.format === 'png' ? 'png' : 'jpg'}`}>
                      <DownloadOutlined /> {t('history.download')}
                    </a>
                    <a href={`/poster/tplHistory?templateId=${template.id}`}>{t('fill.history')}</a>
                  </Space>
                </Space>
              }
            />
          )}
        </aside>
        <div className="mq-poster-viewport" ref={viewport}>
          <div className="mq-poster-stage" style={{ width: Math.round(template.width * zoom) }}>
            <PosterCanvas
              doc={doc}
              width={template.width}
              height={template.height}
              zoom={zoom}
              mode="view"
              stageRef={stageRef}
              imagePlaceholder={t('type.image')}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
