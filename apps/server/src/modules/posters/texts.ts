import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The poster module's messages in the three languages. */
export const PosterText = {
  notFound: text(
    '海报模板不存在或无权访问',
    'The poster template does not exist or is not accessible',
    'ポスターテンプレートが存在しないか、アクセスできません',
  ),
  notManageable: text(
    '只有模板的创建者或其部门的管理者可以删除该海报模板',
    'Only the owner of the poster template or a manager of its department can delete it',
    'このポスターテンプレートを削除できるのは、作成者またはその部署の管理者だけです',
  ),
  versionConflict: text(
    '该海报模板已被他人保存过，请重新打开后再编辑',
    'Someone else saved this poster template since you opened it. Reopen it and edit again',
    'このポスターテンプレートは開いた後に他の人が保存しました。開き直してから編集してください',
  ),
  uploadNotFound: text(
    '海报图片的上传记录不存在或已完成',
    'This poster image upload does not exist or was already finished',
    'このポスター画像のアップロードは存在しないか、既に完了しています',
  ),
  materialNotFound: text(
    '保存到素材库的图片素材不存在或无权访问',
    'The picture material saved to the library does not exist or is not accessible',
    '素材ライブラリに保存した画像素材が存在しないか、アクセスできません',
  ),
  copyOf: (name: string) => text(`${name} 副本`, `${name} copy`, `${name} のコピー`),
};
