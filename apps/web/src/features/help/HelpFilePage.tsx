import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  formatTime,
  HELP_CATEGORY_NAME_MAX_CHARS,
  HELP_LANGUAGES,
  type HelpCategory,
  type HelpDocItem,
  type HelpLanguage,
  Perm,
} from '@marquee/protocol';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Row,
  Segmented,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { useCan } from '../../session/useCan';
import { HelpDocEditor } from './HelpDocEditor';
import '../../components/categoryList.css';
import './help.css';

/**
 * Help documents (/help/helpFile; issue 31, spec section 7 'help documents'). A reader's view:
 * the categories on the left, a search over titles and text, the list and the document in the
 * reader's language (else zh-CN, said so; another language of it a click away). The platform
 * operator (Perm.helpManage) also keeps categories, writes documents (the rich-text editor,
 * one tab per language), publishes, takes back and deletes with a confirmation.
 * The open document and the filters are in the URL (?doc=, ?category=, ?q=).
 */
export default function HelpFilePage() {
  const { t, i18n } = useTranslation('help');
  const mine = readerLanguage(i18n.language);
  const can = useCan();
  const manager = can(Perm.helpManage);
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? undefined;
  const keyword = params.get('q') ?? '';
  const doc = params.get('doc');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [categoryDialog, setCategoryDialog] = useState<{ category: HelpCategory | null } | null>(null);

  const categories = useCallQuery('helpCategories', {});
  const list = useCallQuery(
    'helpList',
    { page, size: 20, ...(category ? { categoryId: category } : {}), ...(keyword ? { keyword } : {}) },
    { keepPrevious: true },
  );
  const removeCategory = useCallMutation('helpCategoryDelete', { success: t('toast.categoryDeleted') });

  const update = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };

  const cats = categories.data ?? [];
  const total = cats.reduce((n, c) => n + c.docCount, 0);

  return (
    <div className="mq-view mq-help" data-testid="help-file-page">
      <Typography.Title level={4}>{t('title')}</Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={7} lg={6}>
          <Card
            size="small"
            title={t('category.title')}
            extra={
              manager ? (
                <Button
                  size="small"
                  type="link"
                  icon={<PlusOutlined />}
                  onClick={() => setCategoryDialog({ category: null })}
                  data-testid="help-category-add"
                >
                  {t('category.add')}
                </Button>
              ) : null
            }
          >
            {categories.isPending ? (
              <Skeleton active paragraph={{ rows: 4 }} title={false} />
            ) : cats.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('category.empty')} />
            ) : (
              <ul className="mq-category-list mq-help-categories" data-testid="help-categories">
                <li>
                  <button
                    type="button"
                    className={!category ? 'is-active' : undefined}
                    aria-pressed={!category}
                    onClick={() => {
                      setPage(1);
                      update({ category: undefined, doc: undefined });
                    }}
                  >
                    {t('category.all')} <span className="mq-help-count">{total}</span>
                  </button>
                </li>
                {cats.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      className={category === c.id ? 'is-active' : undefined}
                      aria-pressed={category === c.id}
                      onClick={() => {
                        setPage(1);
                        update({ category: c.id, doc: undefined });
                      }}
                      data-testid={`help-category-${c.id}`}
                    >
                      {c.name} <span className="mq-help-count">{c.docCount}</span>
                    </button>
                    {manager ? (
                      <>
                        <Button
                          size="small"
                          type="text"
                          icon={<EditOutlined />}
                          aria-label={t('category.edit')}
                          onClick={() => setCategoryDialog({ category: c })}
                        />
                        <Popconfirm
                          title={t('category.deleteConfirm', { name: c.name })}
                          okText={t('action.delete')}
                          cancelText={t('action.cancel')}
                          okButtonProps={confirmOkProps(true)}
                          onConfirm={() => removeCategory.mutateAsync({ id: c.id })}
                        >
                          <Button
                            size="small"
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={t('action.delete')}
                          />
                        </Popconfirm>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </Col>
        <Col xs={24} md={17} lg={18}>
          <Card size="small">
            <div className="mq-help-toolbar">
              <Input.Search
                allowClear
                maxLength={64}
                defaultValue={keyword}
                key={keyword}
                placeholder={t('search.placeholder')}
                aria-label={t('search.placeholder')}
                style={{ maxWidth: 360 }}
                onSearch={(v) => {
                  setPage(1);
                  update({ q: v.trim() || undefined, doc: undefined });
                }}
                data-testid="help-search"
              />
              {manager ? (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  disabled={cats.length === 0}
                  onClick={() => setEditing({ id: null })}
                  data-testid="help-new"
                >
                  {t('doc.new')}
                </Button>
              ) : null}
            </div>
            {doc ? (
              <HelpDocView
                key={doc}
                id={doc}
                manager={manager}
                onBack={() => update({ doc: undefined })}
                onEdit={() => setEditing({ id: doc })}
              />
            ) : (
              <List<HelpDocItem>
                loading={list.isFetching && !list.data}
                dataSource={list.data?.data ?? []}
                data-testid="help-list"
                locale={{
                  emptyText: (
                    <Empty
                      description={list.isError ? t('list.error') : keyword ? t('list.noMatch') : t('list.empty')}
                    />
                  ),
                }}
                pagination={
                  (list.data?.total ?? 0) > 20
                    ? { current: page, pageSize: 20, total: list.data?.total ?? 0, onChange: setPage }
                    : false
                }
                renderItem={(item) => (
                  <List.Item
                    key={item.id}
                    extra={<Typography.Text type="secondary">{formatTime(item.updatedAt)}</Typography.Text>}
                  >
                    <Space wrap>
                      <Typography.Link onClick={() => update({ doc: item.id })} data-testid={`help-doc-${item.id}`}>
                        {item.title}
                      </Typography.Link>
                      <Tag>{cats.find((c) => c.id === item.categoryId)?.name}</Tag>
                      {item.state === 'draft' ? <Tag color="orange">{t('state.draft')}</Tag> : null}
                      {item.language !== mine ? <Tag color="default">{t(`language.${item.language}`)}</Tag> : null}
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
      </Row>
      {manager ? (
        <>
          <HelpDocEditor
            open={Boolean(editing)}
            id={editing?.id ?? null}
            categories={cats}
            categoryId={category}
            onClose={() => setEditing(null)}
            onSaved={(id) => {
              setEditing(null);
              update({ doc: id });
            }}
          />
          <CategoryDialog state={categoryDialog} onClose={() => setCategoryDialog(null)} />
        </>
      ) : null}
    </div>
  );
}

/** The console's language as a help language (zh-CN for anything else). */
function readerLanguage(language: string): HelpLanguage {
  return (HELP_LANGUAGES as readonly string[]).includes(language) ? (language as HelpLanguage) : 'zh-CN';
}

function HelpDocView({
  id,
  manager,
  onBack,
  onEdit,
}: {
  id: string;
  manager: boolean;
  onBack: () => void;
  onEdit: () => void;
}) {
  const { t, i18n } = useTranslation('help');
  const [language, setLanguage] = useState<HelpLanguage | undefined>();
  const info = useCallQuery('helpInfo', { id, ...(language ? { language } : {}) }, { keepPrevious: true });
  const publish = useCallMutation('helpPublish', {
    success: (a) => (a.state === 'published' ? t('toast.published') : t('toast.unpublished')),
  });
  const remove = useCallMutation('helpDelete', { success: t('toast.deleted'), onSuccess: onBack });
  const mine = readerLanguage(i18n.language);

  if (info.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (info.isError || !info.data) {
    return (
      <Empty description={t('doc.error')}>
        <Button onClick={onBack}>{t('doc.back')}</Button>
      </Empty>
    );
  }
  const { doc, version } = info.data;
  return (
    <article className="mq-help-doc" data-testid="help-doc" lang={version.language}>
      <div className="mq-help-doc-head">
        <Button type="link" onClick={onBack} style={{ paddingInline: 0 }} data-testid="help-doc-back">
          ← {t('doc.back')}
        </Button>
        {manager ? (
          <Space wrap>
            <Button icon={<EditOutlined />} onClick={onEdit} data-testid="help-doc-edit">
              {t('doc.edit')}
            </Button>
            <Button
              onClick={() => publish.mutate({ id: doc.id, published: doc.state !== 'published' })}
              loading={publish.isPending}
              data-testid="help-doc-publish"
            >
              {doc.state === 'published' ? t('doc.unpublish') : t('doc.publish')}
            </Button>
            <Popconfirm
              title={t('doc.deleteConfirm', { title: version.title })}
              okText={t('action.delete')}
              cancelText={t('action.cancel')}
              okButtonProps={confirmOkProps(true)}
              onConfirm={() => remove.mutateAsync({ id: doc.id })}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="help-doc-delete">
                {t('action.delete')}
              </Button>
            </Popconfirm>
          </Space>
        ) : null}
      </div>
      <Typography.Title level={3} data-testid="help-doc-title">
        {version.title}
      </Typography.Title>
      <Space wrap className="mq-help-doc-meta">
        {doc.state === 'draft' ? <Tag color="orange">{t('state.draft')}</Tag> : null}
        <Typography.Text type="secondary" data-testid="help-doc-language">
          {t('doc.readingIn', { language: t(`language.${version.language}`) })}
        </Typography.Text>
        {doc.languages.length > 1 ? (
          <Segmented
            size="small"
            value={version.language}
            onChange={(v) => setLanguage(v as HelpLanguage)}
            options={doc.languages.map((l) => ({ value: l, label: t(`language.${l}`) }))}
          />
        ) : null}
        <Typography.Text type="secondary">{t('doc.updated', { time: formatTime(doc.updatedAt) })}</Typography.Text>
      </Space>
      {version.language !== mine && !language ? (
        <Alert
          type="info"
          showIcon
          className="mq-help-fallback"
          title={t('doc.fallback', { mine: t(`language.${mine}`), shown: t(`language.${version.language}`) })}
          data-testid="help-doc-fallback"
        />
      ) : null}
      {version.body ? (
        // The body was sanitised by the server (notice/sanitize.ts) when it was saved.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised HTML from the server
        <div className="mq-help-body" data-testid="help-doc-body" dangerouslySetInnerHTML={{ __html: version.body }} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('doc.noBody')} />
      )}
    </article>
  );
}

function CategoryDialog({ state, onClose }: { state: { category: HelpCategory | null } | null; onClose: () => void }) {
  const { t } = useTranslation('help');
  const [form] = Form.useForm<{ names: Record<HelpLanguage, string>; sort: number }>();
  const save = useCallMutation('helpCategorySave', { success: t('toast.categorySaved') });
  const category = state?.category ?? null;
  useEffect(() => {
    if (!state) return;
    form.setFieldsValue({
      names: category?.names ?? { 'zh-CN': '', 'en-US': '', ja: '' },
      sort: category?.sort ?? 0,
    });
  }, [state, category, form]);
  return (
    <Modal
      open={Boolean(state)}
      title={category ? t('category.edit') : t('category.add')}
      onCancel={onClose}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      confirmLoading={save.isPending}
      onOk={async () => {
        const values = await form.validateFields();
        await save.mutateAsync({
          ...(category ? { id: category.id } : {}),
          names: { 'zh-CN': values.names['zh-CN'], 'en-US': values.names['en-US'] ?? '', ja: values.names.ja ?? '' },
          sort: values.sort ?? 0,
        });
        onClose();
      }}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="help-category-form">
        {HELP_LANGUAGES.map((l) => (
          <Form.Item
            key={l}
            name={['names', l]}
            label={t('category.nameIn', { language: t(`language.${l}`) })}
            rules={l === 'zh-CN' ? [{ required: true, whitespace: true, message: t('category.nameRequired') }] : []}
          >
            <Input maxLength={HELP_CATEGORY_NAME_MAX_CHARS} data-testid={`help-category-name-${l}`} />
          </Form.Item>
        ))}
        <Form.Item name="sort" label={t('field.sort')} tooltip={t('field.sortHint')}>
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
