import { ArrowLeftOutlined, DownloadOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import {
  fillPoster,
  Perm,
  type PosterFieldValues,
  type PosterFormat,
  type PosterMade,
  type PosterTemplate,
  posterFields,
} from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Empty, Form, Input, Radio, Space, TreeSelect, Typography } from 'antd';
import type Konva from 'konva';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { domainKey } from '../../api/queries';
import { currentLocale } from '../../i18n';
import { useCan } from '../../session/useCan';
import { useFolderTree } from '../materials/api';
import { folderOptions } from '../materials/FolderTree';
import { makePosterImage } from './exportPoster';
import { PosterCanvas } from './PosterCanvas';

/** The folder last used for posters' library copies (this browser). */
const LIBRARY_FOLDER_KEY = 'mq.poster.libraryFolder';

/** A poster's name in the library: its template's name and when it was made (at most 100 characters). */
function posterMaterialName(templateName: string): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}.${pad(now.getMinutes())}.${pad(now.getSeconds())}`;
  return `${templateName.slice(0, 100 - stamp.length - 1)} ${stamp}`;
}

/**
 * Fill mode (/poster/editor?id=&mode=fill): a form with the template's fields beside the
 * poster, which follows every keystroke; then the poster is drawn at full size as PNG or
 * JPEG, uploaded and recorded ('image generation failed' when that fails).
 */
export function FillPanel({ template }: { template: PosterTemplate }) {
  const { t } = useTranslation(['posters', 'errors']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fields = useMemo(() => posterFields(template.document), [template.document]);
  const [values, setValues] = useState<PosterFieldValues>(() =>
    Object.fromEntries(fields.map((f) => [f.field.key, f.value])),
  );
  const [format, setFormat] = useState<PosterFormat>('png');
  // A copy in the material library (whoever may upload materials): on by default once a folder was used.
  const can = useCan();
  const canSave = can(Perm.advMaterial);
  const folders = useFolderTree();
  const folderChoices = useMemo(() => folderOptions(folders.data ?? []), [folders.data]);
  const [libraryFolder, setLibraryFolder] = useState<string | undefined>(
    () => localStorage.getItem(LIBRARY_FOLDER_KEY) ?? undefined,
  );
  const [toLibrary, setToLibrary] = useState(() => localStorage.getItem(LIBRARY_FOLDER_KEY) !== null);
  const folderKnown = (id: string | undefined, nodes = folders.data ?? []): boolean =>
    !!id && nodes.some((n) => n.id === id || folderKnown(id, n.children));
  const libraryTarget = canSave && toLibrary && folderKnown(libraryFolder) ? libraryFolder : undefined;
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
        ...(libraryTarget
          ? { library: { folderId: libraryTarget, name: posterMaterialName(template.name), language: currentLocale() } }
          : {}),
      });
      if (libraryTarget) localStorage.setItem(LIBRARY_FOLDER_KEY, libraryTarget);
      setMade(result);
      message.success(t('fill.made'));
      void queryClient.invalidateQueries({ queryKey: domainKey('posters') });
      // A poster kept in the library is a new material.
      if (libraryTarget) void queryClient.invalidateQueries({ queryKey: domainKey('materials') });
    } catch (error) {
      // Server answers were shown by the API client; a drawing or upload failure is shown here.
      if (!(error instanceof ApiError && error.kind === 'server'))
        message.error(t('imageGenerationFailed', { ns: 'posters' }));
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
            {canSave ? (
              <Form.Item
                validateStatus={toLibrary && !libraryTarget ? 'warning' : undefined}
                help={toLibrary && !libraryTarget ? t('fill.chooseFolder') : undefined}
              >
                <Checkbox
                  checked={toLibrary}
                  onChange={(e) => setToLibrary(e.target.checked)}
                  data-testid="poster-fill-library"
                >
                  {t('fill.saveToLibrary')}
                </Checkbox>
                {toLibrary ? (
                  <TreeSelect
                    value={folderKnown(libraryFolder) ? libraryFolder : undefined}
                    onChange={(v: string) => setLibraryFolder(v)}
                    treeData={folderChoices}
                    treeDefaultExpandAll
                    loading={folders.isPending}
                    placeholder={t('fill.folder')}
                    aria-label={t('fill.folder')}
                    style={{ width: '100%', marginTop: 8 }}
                    data-testid="poster-fill-folder"
                  />
                ) : null}
              </Form.Item>
            ) : null}
          </Form>
          <Button
            type="primary"
            block
            loading={busy}
            disabled={toLibrary && canSave && !libraryTarget}
            onClick={() => void make()}
            data-testid="poster-make"
          >
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
                    {made.materialId ? (
                      <a href={`/advert/material?folderId=${libraryFolder ?? ''}`} data-testid="poster-made-library">
                        {t('fill.inLibrary')}
                      </a>
                    ) : null}
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
