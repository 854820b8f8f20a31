/**
 * The error-code catalogue of the console protocol (spec section 8, docs/protocol.md).
 * Every answer is `{ code, message, payload }`; code 0 is success. The two session codes
 * (-11004, -10008) are the spec's; the rest are Marquee's own and stable.
 */
export const ErrorCode = {
  OK: 0,
  /** Missing, expired or revoked token: the console logs out to /login. */
  TOKEN_INVALID: -11004,
  /** The account was paused or its session was ended elsewhere: the console logs out. */
  SESSION_ENDED: -10008,
  /** A query field of the call envelope is missing or malformed. */
  BAD_ENVELOPE: -10001,
  /** The signature does not match the query fields and payload. */
  BAD_SIGNATURE: -10002,
  /** The timestamp is outside the accepted window. */
  STALE_TIMESTAMP: -10003,
  /** The sequence was already used by this client inside the window. */
  REPLAYED_SEQUENCE: -10004,
  /**
   * A mutation's sequence was already used by this client inside the window for a different
   * request (another payload, endpoint or token); a retry of the same request gets the first answer.
   */
  SEQUENCE_REUSED: -10009,
  /** The payload is not JSON or fails the endpoint's request schema. */
  INVALID_PARAMS: -10005,
  /** Wrong account or password. */
  LOGIN_FAILED: -10006,
  /** The account is paused: it cannot log in. */
  ACCOUNT_PAUSED: -10007,
  /** The caller lacks the endpoint's permission code. */
  NO_PERMISSION: -10403,
  /** The object does not exist, or is outside the caller's tenant or data scope. */
  NOT_FOUND: -10404,
  /** The change conflicts with the current state (already decided, duplicate...). */
  CONFLICT: -10409,
  /** Too many attempts; try again later. */
  RATE_LIMITED: -10429,
  /** Unexpected server failure (never a client mistake). */
  SERVER_ERROR: -10500,
  // Access (issue 3, "access"): verification codes, registration, scan login, password change
  /** The verification code is wrong, expired, used or burned after too many attempts. */
  CODE_INVALID: -10020,
  /** No account has this phone, e-mail or WeChat/DingTalk identity (spec section 8). */
  NOT_REGISTERED: -10021,
  /** The login method is not configured on this server (spec section 8 'feature not online'). */
  FEATURE_NOT_ONLINE: -10022,
  /** The account must change its password before anything else (updatePwd). */
  PASSWORD_CHANGE_REQUIRED: -10023,
  // Devices (issue 9, docs/device-protocol.md): pairing and the player's HTTP calls
  /** The pairing code is unknown or expired (console add-device, player poll). */
  PAIRING_CODE_INVALID: -10030,
  /** The pairing was not bound to an enterprise yet: keep polling. */
  PAIRING_PENDING: -10031,
  /** The credentials of this pairing were already collected: they are given once. */
  CREDENTIALS_TAKEN: -10032,
  /**
   * Add by number: several live pairings report this device number (one may not be the
   * screen's own); add by the code the screen shows (device.pairingCandidates lists them).
   */
  PAIRING_NUMBER_AMBIGUOUS: -10033,
  // Geography (issue 9, dev-geo): geocoding of device and store addresses
  /** No coordinate could be found for the address (spec section 8); pick the point by hand. */
  GEO_NO_COORDINATES: -10040,
  /** The device was deleted in the console, or these credentials were replaced: pair again. */
  DEVICE_REMOVED: -10036,
  /** The device was disabled in the console (`invalid`): wait until an operator enables it. */
  DEVICE_DISABLED: -10037,
  // Files and the player's authenticated calls (issue 9 screenshots; issue 10 materials)
  /** A player call with missing or wrong device credentials (HTTP Basic), or a disabled device. */
  DEVICE_AUTH_FAILED: -10041,
  /** Spec section 8 'file size limit exceeded'. */
  FILE_TOO_LARGE: -10042,
  /** Spec section 8 'file format error': the content is not of an accepted type. */
  FILE_FORMAT_ERROR: -10043,
  // Storage (issue 10, "storage"): direct uploads with a signed policy (POST /upload, S3 POST policy)
  /** The upload's signature, policy or fields do not match (forged, another key or enterprise). */
  UPLOAD_POLICY_INVALID: -10050,
  /** The upload policy has expired: ask for a new signature. */
  UPLOAD_POLICY_EXPIRED: -10051,
  /** The file is smaller than the policy allows (an empty file, for one). */
  UPLOAD_FILE_TOO_SMALL: -10052,
  /** The upload is not a multipart form with the policy fields followed by one `file`. */
  UPLOAD_MALFORMED: -10053,
  /** The upload ended before the whole file was received: nothing was stored. */
  UPLOAD_INCOMPLETE: -10054,
  /** Spec section 8 'upload failed': the storage could not take the file (nothing was stored). */
  UPLOAD_FAILED: -10055,
  // Materials (issue 10, "materials"): the material library (spec sections 5 and 8)
  /** The folder name breaks the rule (not empty, at most 50 characters, none of \\ | / : ? * < >). */
  MATERIAL_FOLDER_NAME_INVALID: -10060,
  /** Spec section 8 'too many directory levels'. */
  MATERIAL_FOLDER_TOO_DEEP: -10061,
  /** The folder still holds folders or materials: it cannot be deleted. */
  MATERIAL_FOLDER_NOT_EMPTY: -10062,
  /** Spec section 8 'duplicate file': the enterprise already has this file. */
  MATERIAL_DUPLICATE_FILE: -10063,
  /** The enterprise's storage quota would be exceeded by the upload. */
  STORAGE_QUOTA_EXCEEDED: -10064,
  /** The material is used by an ad or a layout: it cannot be deleted. */
  MATERIAL_IN_USE: -10065,
  /** Spec section 8 'invalid material': processing failed, or it is not usable (yet). */
  MATERIAL_INVALID: -10066,
  /** Spec section 5: a folder must be chosen before upload. */
  MATERIAL_FOLDER_REQUIRED: -10067,
  /** A folder cannot move into itself or one of its sub-folders. */
  MATERIAL_FOLDER_MOVE_INVALID: -10068,
  /** The upload is unknown, already verified or expired: upload again. */
  MATERIAL_UPLOAD_EXPIRED: -10069,
  /** A sibling folder already has this name. */
  MATERIAL_FOLDER_NAME_TAKEN: -10070,
  /** The web page or live-stream address is not a valid URL of an accepted scheme. */
  MATERIAL_URL_INVALID: -10071,
  /** The file was not found in storage when the upload was verified (not uploaded, or interrupted). */
  MATERIAL_FILE_MISSING: -10072,
  // Layouts (issue 11, packages/layout): the rules of spec section 5 and the editor's messages
  /** Spec section 8 'delete failed as a layout must keep one page'. */
  LAYOUT_KEEP_ONE_PAGE: -10080,
  /** Spec section 8 'layout cannot be edited or upgraded': a default layout. */
  LAYOUT_NOT_EDITABLE: -10081,
  /** Spec section 5: at most 6 live components per layout. */
  LAYOUT_TOO_MANY_LIVE: -10082,
  /** Spec section 5: only one auto-jump interactive button. */
  LAYOUT_ONE_AUTO_JUMP: -10083,
  /** The layout was saved by someone else since it was opened (expected version differs). */
  LAYOUT_VERSION_CONFLICT: -10084,
  /** The layout is used by an ad or a screen: it cannot be deleted. */
  LAYOUT_IN_USE: -10085,
  /** The document breaks another layout rule (duplicate ids, a jump to a missing page, too many components). */
  LAYOUT_INVALID: -10086,
  // Posters (issue 11, "poster"): the poster template editor
  /** Spec section 8 'image generation failed': the poster's image is missing, not a PNG/JPEG of the template's size. */
  IMAGE_GENERATION_FAILED: -10100,
  // The browser player's content (branch player, -10090..-10099)
  /** device.assignLayout: the layout does not exist in the enterprise, or layouts are not available. */
  LAYOUT_NOT_AVAILABLE: -10090,
  // Ads and promotion plans (issue 13, -10110..-10129)
  /** Spec section 8 'monitoring address does not meet requirements': not an http(s) URL of at most 500 characters. */
  AD_MONITOR_URL_INVALID: -10110,
  /** Spec section 5: at most 20 materials per release. */
  AD_TOO_MANY_MATERIALS: -10111,
  /** Spec section 6: the default promotion plan cannot be edited or deleted. */
  AD_PLAN_NOT_EDITABLE: -10112,
  /** The promotion plan still has ads: move or delete them first. */
  AD_PLAN_IN_USE: -10113,
  /** A target (device, group, tag, department, split screen) does not exist or is outside the caller's data scope. */
  AD_TARGET_INVALID: -10114,
  /** ad.broadcast / ad.repush: the ad is not scheduled (not passed, paused, deleted or over): there is nothing to send. */
  AD_NOT_SCHEDULED: -10115,
  // Money (issue 26): the ledger, payments, invoices
  /** The wallet's available balance does not cover the amount (checked in the statement that moves it). */
  INSUFFICIENT_BALANCE: -10120,
  /** A transfer id was used before for a different transfer (another amount, account or kind). */
  TRANSFER_ID_REUSED: -10121,
  /** The hold (pending transfer) timed out: it can no longer be posted. */
  TRANSFER_PENDING_EXPIRED: -10122,
  /** The payment order is paid, closed, expired or under review: it cannot be paid now. */
  PAYMENT_NOT_PAYABLE: -10123,
  /** The payment method is not available for this order (a recharge by balance, a provider not configured). */
  PAYMENT_METHOD_UNAVAILABLE: -10124,
  /** The invoice asks for more than was paid and not yet invoiced. */
  INVOICE_AMOUNT_EXCEEDED: -10125,
  /** Spec section 8 'invalid amount': an amount that is not a whole number of fen in range. */
  INVALID_AMOUNT: -10126,
  // The market and IoT cards (issue 27, -10130..-10139)
  /** Spec section 8 'commodity on sale, take it off shelf before editing price'. */
  COMMODITY_ON_SALE: -10130,
  /** The product (or the chosen term) is not on sale. */
  PRODUCT_OFF_SHELF: -10131,
  /** Spec section 9: a device offline for more than 72 hours cannot be the subject of a new order or listing. */
  DEVICE_LONG_OFFLINE: -10132,
  /** An order's subjects do not fit its product: no device or card chosen, one not visible or not of the kind, a card cancelled. */
  MARKET_SUBJECT_INVALID: -10133,
  /** The market order is paid, cancelled or under offline review: it cannot be cancelled. */
  MARKET_ORDER_STATE: -10134,
  /** The card's state does not allow this action (spec section 4). */
  CARD_STATE: -10135,
  // Selling airtime (issue 28, -10140..-10149)
  /** Spec section 8 'time conflict': a screen-hour has no rotation left (booked or held), or two price contracts overlap. */
  TIME_CONFLICT: -10140,
  /** The order's state does not allow this action (spec section 4). */
  SALES_ORDER_STATE: -10141,
  /** The coupon is not usable: disabled, not started, expired, used up, or not for these goods. */
  COUPON_UNAVAILABLE: -10142,
  /** The goods are off shelf, expired or sold out. */
  GOODS_NOT_ON_SALE: -10143,
  /** The contract is signed (immutable), changed since it was read, or signed through the e-signature provider. */
  CONTRACT_STATE: -10144,
  /** The settlement's state does not allow this action (spec section 4). */
  SETTLEMENT_STATE: -10145,
  /** The slot is used by goods on sale or orders not over: its method, rotations and screens stay. */
  SLOT_IN_USE: -10146,
  /** No e-signature provider is configured (ESIGN_URL). */
  ESIGN_UNAVAILABLE: -10147,
  // Programmatic airtime (issue 29, -10150..-10159)
  /** The RTB campaign has ended (or is not in a state that allows this). */
  RTB_CAMPAIGN_STATE: -10150,
  /** A campaign's budget cannot go below what it has spent and reserved for won turns. */
  RTB_BUDGET_BELOW_COMMITTED: -10151,
  // One-key alarms (issue 30, -10170..-10179)
  /** The alarm event's state does not allow this action (acknowledge, handle, close in order). */
  ALARM_EVENT_STATE: -10170,
  /** Another alarm region of the enterprise has this name. */
  ALARM_REGION_NAME_TAKEN: -10171,
  /** Closing an alarm event needs a note. */
  ALARM_NOTE_REQUIRED: -10172,
  // Third-party monitoring (issue 30, -10180..-10189)
  /** The monitoring task's state does not allow this (closed, completed, overdue...). */
  MONITOR_TASK_STATE: -10180,
  /** The account is not a monitor the enterprise agreed to (no grant). */
  MONITOR_NOT_GRANTED: -10181,
  /** An application of this monitor to this enterprise already waits for a decision. */
  MONITOR_APPLICATION_PENDING: -10182,
  /** A task is completed only with the photographs its plan asks for. */
  MONITOR_PHOTOS_MISSING: -10183,
  /** The uploaded photograph is missing or not a JPEG, PNG or WebP picture. */
  MONITOR_PHOTO_INVALID: -10184,
  // Help documents (issue 31, -10200..-10204)
  /** A help category still holds documents: move or delete them first. */
  HELP_CATEGORY_NOT_EMPTY: -10200,
  /** A help document needs its zh-CN version (the fallback of every reader). */
  HELP_ZH_CN_REQUIRED: -10201,
  /** A picture named in a help document is not an uploaded help picture. */
  HELP_IMAGE_INVALID: -10202,
  /** Another help category has this zh-CN name. */
  HELP_CATEGORY_NAME_TAKEN: -10203,
  /** A help document's body is longer than HELP_BODY_MAX_CHARS. */
  HELP_BODY_TOO_LONG: -10204,
  // Feedback (issue 31, -10205..-10209)
  /** Spec section 5: the feedback description within 500 characters. */
  FEEDBACK_TOO_LONG: -10205,
  /** The feedback's state does not allow this (it is closed). */
  FEEDBACK_STATE: -10206,
  /** More screenshots than a feedback carries (FEEDBACK_MAX_SHOTS). */
  FEEDBACK_TOO_MANY_SHOTS: -10207,
  /** A screenshot named is not the caller's, not uploaded, or already used. */
  FEEDBACK_SHOT_INVALID: -10208,
  /** The operator's reply is longer than FEEDBACK_REPLY_MAX_CHARS. */
  FEEDBACK_REPLY_TOO_LONG: -10209,
  // Screen watermarks (issue 31, -10210..-10219)
  /** A watermark's picture is not a ready picture of the enterprise's library. */
  WATERMARK_IMAGE_INVALID: -10210,
  // Special resources (issue 31, -10230..-10239)
  /** The resource is not listed (a draft or withdrawn): it takes no inquiry. */
  SPECIAL_RESOURCE_STATE: -10230,
  /** The inquiry's state does not allow this (answered, accepted, declined or withdrawn). */
  SPECIAL_INQUIRY_STATE: -10231,
  /** The resource is held by as many buyers as its capacity. */
  SPECIAL_CAPACITY_FULL: -10232,
  /** The end date is before the start, or the dates wanted are outside the resource's. */
  SPECIAL_DATES_INVALID: -10233,
  /** A photo named is not uploaded, not the operator's, or of another resource. */
  SPECIAL_PHOTO_INVALID: -10234,
  // Offline packages (issue 31, -10240..-10249)
  /** A file the screen's content needs is not in storage: no package can be made of it. */
  OFFLINE_FILE_MISSING: -10240,
  // Firmware and APK upgrades (issue 31, -10250..-10259)
  /** The package is not uploaded and verified yet (its file is missing or not checked). */
  UPGRADE_PACKAGE_NOT_READY: -10250,
  /** A rollout uses the package: it cannot be deleted. */
  UPGRADE_PACKAGE_IN_USE: -10251,
  /** The rollout's state does not allow this action (halt, resume, continue, rollback). */
  UPGRADE_ROLLOUT_STATE: -10252,
  /** No earlier package to roll back to (none named, none of the version the devices ran before). */
  UPGRADE_NO_PREVIOUS: -10253,
  /** The uploaded file is missing from storage. */
  UPGRADE_FILE_MISSING: -10254,
  /** Rollback to a chosen package: it is the rollout's own package. */
  UPGRADE_ROLLBACK_SAME_PACKAGE: -10255,
  /** Rollback to a chosen package: it is of another kind or device type than the rollout's. */
  UPGRADE_ROLLBACK_PACKAGE_MISMATCH: -10256,
  // Device custom fields (issue 31, -10265..-10269)
  /** Another custom field of the enterprise has this key. */
  CUSTOM_FIELD_KEY_TAKEN: -10265,
  /** A custom field's value does not fit its type or options (the message names the field). */
  CUSTOM_FIELD_VALUE_INVALID: -10266,
  /** A required custom field has no value (the message names the field). */
  CUSTOM_FIELD_REQUIRED: -10267,
  /** The enterprise has as many custom fields as it may (CUSTOM_FIELDS_MAX). */
  CUSTOM_FIELD_LIMIT: -10268,
  /** Devices hold values of the field: its type cannot change. */
  CUSTOM_FIELD_TYPE_LOCKED: -10269,
  // Dictionaries (issue 31, -10260..-10264)
  /** Another entry of the dictionary has this code. */
  DICTIONARY_CODE_TAKEN: -10260,
  /** Stored data holds the entry's code: it cannot be deleted (disable it instead). */
  DICTIONARY_IN_USE: -10261,
  /** The dictionary's codes are fixed by a standard (OpenOOH venue types): none is added or deleted. */
  DICTIONARY_FIXED: -10262,
  /** A value is an entry of its dictionary disabled since (a code it never had is INVALID_PARAMS). */
  DICTIONARY_VALUE_INVALID: -10263,
  /** A dictionary keeps at least one enabled entry. */
  DICTIONARY_LAST_ENABLED: -10264,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export type Locale = 'zh-CN' | 'en-US' | 'ja';

type Messages = Record<Locale, string>;

export const errorMessages: Record<ErrorCodeValue, Messages> = {
  [ErrorCode.OK]: { 'zh-CN': '操作成功', 'en-US': 'Operation successful', ja: '操作が成功しました' },
  [ErrorCode.TOKEN_INVALID]: {
    'zh-CN': '登录已失效，请重新登录',
    'en-US': 'Your session has expired. Please log in again',
    ja: 'ログインの有効期限が切れました。再度ログインしてください',
  },
  [ErrorCode.SESSION_ENDED]: {
    'zh-CN': '账号已停用或已在别处退出，请重新登录',
    'en-US': 'Your account was paused or your session was ended elsewhere. Please log in again',
    ja: 'アカウントが停止されたか、別の場所でセッションが終了しました。再度ログインしてください',
  },
  [ErrorCode.BAD_ENVELOPE]: {
    'zh-CN': '请求参数缺失或格式错误',
    'en-US': 'A request field is missing or malformed',
    ja: 'リクエストの項目が不足しているか形式が正しくありません',
  },
  [ErrorCode.BAD_SIGNATURE]: {
    'zh-CN': '请求签名错误',
    'en-US': 'The request signature is invalid',
    ja: 'リクエストの署名が正しくありません',
  },
  [ErrorCode.STALE_TIMESTAMP]: {
    'zh-CN': '请求时间戳已过期，请校准本机时间',
    'en-US': 'The request timestamp is outside the accepted window. Check your clock',
    ja: 'リクエストのタイムスタンプが許容範囲外です。時刻を確認してください',
  },
  [ErrorCode.REPLAYED_SEQUENCE]: {
    'zh-CN': '重复的请求',
    'en-US': 'This request was already received',
    ja: 'このリクエストは既に受信されています',
  },
  [ErrorCode.SEQUENCE_REUSED]: {
    'zh-CN': '该请求序号已用于另一个不同的请求',
    'en-US': 'This sequence was already used for a different request',
    ja: 'このシーケンスは別のリクエストで既に使用されています',
  },
  [ErrorCode.INVALID_PARAMS]: {
    'zh-CN': '请求参数无效',
    'en-US': 'Invalid parameters',
    ja: 'パラメータが無効です',
  },
  [ErrorCode.LOGIN_FAILED]: {
    'zh-CN': '账号或密码错误',
    'en-US': 'Wrong account or password',
    ja: 'アカウントまたはパスワードが正しくありません',
  },
  [ErrorCode.ACCOUNT_PAUSED]: {
    'zh-CN': '账号已停用，请联系管理员',
    'en-US': 'This account is paused. Please contact your administrator',
    ja: 'このアカウントは停止されています。管理者にお問い合わせください',
  },
  [ErrorCode.NO_PERMISSION]: {
    'zh-CN': '暂无权限，请联系商务人员',
    'en-US': 'No permission, please contact business staff',
    ja: '権限がありません。営業担当者にお問い合わせください',
  },
  [ErrorCode.NOT_FOUND]: {
    'zh-CN': '数据不存在',
    'en-US': 'The requested data does not exist',
    ja: 'データが存在しません',
  },
  [ErrorCode.CONFLICT]: {
    'zh-CN': '数据状态已变化，操作无法完成',
    'en-US': 'The data has changed; the operation cannot be completed',
    ja: 'データの状態が変わったため、操作を完了できません',
  },
  [ErrorCode.RATE_LIMITED]: {
    'zh-CN': '尝试次数过多，请稍后再试',
    'en-US': 'Too many attempts. Please try again later',
    ja: '試行回数が多すぎます。しばらくしてから再度お試しください',
  },
  [ErrorCode.SERVER_ERROR]: {
    'zh-CN': '服务器错误',
    'en-US': 'Server error',
    ja: 'サーバーエラー',
  },
  [ErrorCode.CODE_INVALID]: {
    'zh-CN': '验证码错误或已失效',
    'en-US': 'The verification code is wrong or has expired',
    ja: '認証コードが正しくないか、有効期限が切れています',
  },
  [ErrorCode.NOT_REGISTERED]: {
    'zh-CN': '该账号未注册，请先注册',
    'en-US': 'Not registered. Please register first',
    ja: '登録されていません。先に登録してください',
  },
  [ErrorCode.FEATURE_NOT_ONLINE]: {
    'zh-CN': '功能暂未上线',
    'en-US': 'Feature not online',
    ja: 'この機能はまだ公開されていません',
  },
  [ErrorCode.PASSWORD_CHANGE_REQUIRED]: {
    'zh-CN': '请先修改密码',
    'en-US': 'Please change your password first',
    ja: '先にパスワードを変更してください',
  },
  [ErrorCode.PAIRING_CODE_INVALID]: {
    'zh-CN': '配对码不存在或已过期',
    'en-US': 'The pairing code does not exist or has expired',
    ja: 'ペアリングコードが存在しないか、有効期限が切れています',
  },
  [ErrorCode.PAIRING_PENDING]: {
    'zh-CN': '设备尚未被添加，请稍候',
    'en-US': 'The device has not been added yet. Please wait',
    ja: 'デバイスはまだ追加されていません。しばらくお待ちください',
  },
  [ErrorCode.CREDENTIALS_TAKEN]: {
    'zh-CN': '设备凭据已被领取，请重新配对',
    'en-US': 'The device credentials were already collected. Please pair again',
    ja: 'デバイスの認証情報は既に受け取られています。再度ペアリングしてください',
  },
  [ErrorCode.PAIRING_NUMBER_AMBIGUOUS]: {
    'zh-CN': '有多个配对请求使用该设备编号，请按屏幕上显示的配对码添加',
    'en-US': 'Several pairing requests carry this device number. Add the device by the code its screen shows',
    ja: 'このデバイス番号のペアリング要求が複数あります。画面に表示されているコードで追加してください',
  },
  [ErrorCode.GEO_NO_COORDINATES]: {
    'zh-CN': '该地址没有经纬度，请检查地址或手动填写经纬度',
    'en-US': 'The address has no latitude and longitude. Check the address or enter the coordinates',
    ja: 'この住所には緯度・経度がありません。住所を確認するか、緯度・経度を入力してください',
  },
  [ErrorCode.DEVICE_REMOVED]: {
    'zh-CN': '设备已被删除或凭据已失效，请重新配对',
    'en-US': 'The device was removed or its credentials are no longer valid. Please pair again',
    ja: 'デバイスは削除されたか、認証情報が無効になっています。再度ペアリングしてください',
  },
  [ErrorCode.DEVICE_DISABLED]: {
    'zh-CN': '设备已被停用，请联系管理员启用',
    'en-US': 'The device has been disabled. Ask an administrator to enable it',
    ja: 'デバイスは無効化されています。管理者に有効化を依頼してください',
  },
  [ErrorCode.DEVICE_AUTH_FAILED]: {
    'zh-CN': '设备认证失败',
    'en-US': 'Device authentication failed',
    ja: 'デバイスの認証に失敗しました',
  },
  [ErrorCode.FILE_TOO_LARGE]: {
    'zh-CN': '文件大小超出限制',
    'en-US': 'File size limit exceeded',
    ja: 'ファイルサイズが上限を超えています',
  },
  [ErrorCode.FILE_FORMAT_ERROR]: {
    'zh-CN': '文件格式错误',
    'en-US': 'File format error',
    ja: 'ファイル形式が正しくありません',
  },
  [ErrorCode.UPLOAD_POLICY_INVALID]: {
    'zh-CN': '上传签名无效，请重新上传',
    'en-US': 'The upload signature is not valid. Please upload again',
    ja: 'アップロードの署名が無効です。もう一度アップロードしてください',
  },
  [ErrorCode.UPLOAD_POLICY_EXPIRED]: {
    'zh-CN': '上传签名已过期，请重新上传',
    'en-US': 'The upload signature has expired. Please upload again',
    ja: 'アップロードの署名の有効期限が切れました。もう一度アップロードしてください',
  },
  [ErrorCode.UPLOAD_FILE_TOO_SMALL]: {
    'zh-CN': '文件过小或为空',
    'en-US': 'The file is too small or empty',
    ja: 'ファイルが小さすぎるか、空です',
  },
  [ErrorCode.UPLOAD_MALFORMED]: {
    'zh-CN': '上传内容格式不正确',
    'en-US': 'The upload request is malformed',
    ja: 'アップロードの形式が正しくありません',
  },
  [ErrorCode.UPLOAD_INCOMPLETE]: {
    'zh-CN': '文件未完整上传，请重试',
    'en-US': 'The file was not completely uploaded. Please try again',
    ja: 'ファイルが最後までアップロードされませんでした。もう一度お試しください',
  },
  [ErrorCode.UPLOAD_FAILED]: {
    'zh-CN': '上传失败',
    'en-US': 'Upload failed',
    ja: 'アップロードに失敗しました',
  },
  [ErrorCode.MATERIAL_FOLDER_NAME_INVALID]: {
    'zh-CN': '文件夹名称不能为空，不超过 50 个字符，且不能包含 \\ | / : ? * < >',
    'en-US': 'The folder name must not be empty, has at most 50 characters and none of \\ | / : ? * < >',
    ja: 'フォルダー名は空にできず、50 文字以内で、\\ | / : ? * < > は使用できません',
  },
  [ErrorCode.MATERIAL_FOLDER_TOO_DEEP]: {
    'zh-CN': '目录层级过多',
    'en-US': 'Too many directory levels',
    ja: 'フォルダーの階層が深すぎます',
  },
  [ErrorCode.MATERIAL_FOLDER_NOT_EMPTY]: {
    'zh-CN': '文件夹不为空，请先移走或删除其中的文件夹和素材',
    'en-US': 'The folder is not empty. Move or delete its folders and materials first',
    ja: 'フォルダーが空ではありません。中のフォルダーと素材を先に移動または削除してください',
  },
  [ErrorCode.MATERIAL_DUPLICATE_FILE]: {
    'zh-CN': '文件重复',
    'en-US': 'Duplicate file',
    ja: 'ファイルが重複しています',
  },
  [ErrorCode.STORAGE_QUOTA_EXCEEDED]: {
    'zh-CN': '存储空间不足，请删除不用的素材或购买存储包',
    'en-US': 'Not enough storage space. Delete unused materials or buy a storage pack',
    ja: 'ストレージ容量が不足しています。不要な素材を削除するか、ストレージパックを購入してください',
  },
  [ErrorCode.MATERIAL_IN_USE]: {
    'zh-CN': '素材正在被广告或布局使用，无法删除',
    'en-US': 'The material is used by an ad or a layout and cannot be deleted',
    ja: 'この素材は広告またはレイアウトで使用中のため、削除できません',
  },
  [ErrorCode.MATERIAL_INVALID]: {
    'zh-CN': '无效素材',
    'en-US': 'Invalid material',
    ja: '無効な素材です',
  },
  [ErrorCode.MATERIAL_FOLDER_REQUIRED]: {
    'zh-CN': '请先选择文件夹再上传',
    'en-US': 'Please choose a folder before uploading',
    ja: 'アップロードする前にフォルダーを選択してください',
  },
  [ErrorCode.MATERIAL_FOLDER_MOVE_INVALID]: {
    'zh-CN': '不能将文件夹移动到其自身或其子文件夹中',
    'en-US': 'A folder cannot be moved into itself or one of its subfolders',
    ja: 'フォルダーをそれ自身またはそのサブフォルダーに移動することはできません',
  },
  [ErrorCode.MATERIAL_UPLOAD_EXPIRED]: {
    'zh-CN': '上传已失效，请重新上传',
    'en-US': 'The upload has expired. Please upload again',
    ja: 'アップロードの有効期限が切れました。もう一度アップロードしてください',
  },
  [ErrorCode.MATERIAL_FOLDER_NAME_TAKEN]: {
    'zh-CN': '同一目录下已有同名文件夹',
    'en-US': 'A folder with this name already exists here',
    ja: '同じ場所に同じ名前のフォルダーがすでにあります',
  },
  [ErrorCode.MATERIAL_URL_INVALID]: {
    'zh-CN': '地址不正确，请输入有效的网页或直播流地址',
    'en-US': 'The address is not valid. Enter a valid web page or live-stream URL',
    ja: 'アドレスが正しくありません。有効な Web ページまたはライブ配信の URL を入力してください',
  },
  [ErrorCode.MATERIAL_FILE_MISSING]: {
    'zh-CN': '读取文件失败，请重新上传',
    'en-US': 'Failed to read the file. Please upload again',
    ja: 'ファイルの読み込みに失敗しました。もう一度アップロードしてください',
  },
  [ErrorCode.LAYOUT_KEEP_ONE_PAGE]: {
    'zh-CN': '删除失败，布局至少保留一页',
    'en-US': 'Delete failed: a layout must keep at least one page',
    ja: '削除できません。レイアウトには少なくとも 1 ページが必要です',
  },
  [ErrorCode.LAYOUT_NOT_EDITABLE]: {
    'zh-CN': '布局不可编辑或升级',
    'en-US': 'This layout cannot be edited or upgraded',
    ja: 'このレイアウトは編集・アップグレードできません',
  },
  [ErrorCode.LAYOUT_TOO_MANY_LIVE]: {
    'zh-CN': '一个布局最多只能有 6 个直播组件',
    'en-US': 'A layout can have at most 6 live-stream components',
    ja: '1 つのレイアウトに置けるライブ配信コンポーネントは 6 個までです',
  },
  [ErrorCode.LAYOUT_ONE_AUTO_JUMP]: {
    'zh-CN': '只能有一个自动跳转的交互按钮',
    'en-US': 'Only one interactive button can jump automatically',
    ja: '自動ジャンプするインタラクティブボタンは 1 つだけです',
  },
  [ErrorCode.LAYOUT_VERSION_CONFLICT]: {
    'zh-CN': '布局已被他人修改，请重新打开后再保存',
    'en-US': 'Someone else has saved this layout since you opened it. Reopen it and save again',
    ja: 'このレイアウトは開いた後に他の人が保存しました。開き直してから保存してください',
  },
  [ErrorCode.LAYOUT_IN_USE]: {
    'zh-CN': '布局正在被广告或设备使用，无法删除',
    'en-US': 'This layout is in use by an ad or a screen and cannot be deleted',
    ja: 'このレイアウトは広告またはデバイスで使用中のため削除できません',
  },
  [ErrorCode.LAYOUT_INVALID]: {
    'zh-CN': '布局内容不符合规则',
    'en-US': 'The layout breaks a layout rule',
    ja: 'レイアウトの内容がルールに合っていません',
  },
  [ErrorCode.IMAGE_GENERATION_FAILED]: {
    'zh-CN': '图片生成失败',
    'en-US': 'Image generation failed',
    ja: '画像の生成に失敗しました',
  },
  [ErrorCode.LAYOUT_NOT_AVAILABLE]: {
    'zh-CN': '布局不存在或不可用',
    'en-US': 'The layout does not exist or is not available',
    ja: 'レイアウトが存在しないか、利用できません',
  },
  [ErrorCode.AD_MONITOR_URL_INVALID]: {
    'zh-CN': '监测地址不符合要求',
    'en-US': 'The monitoring address does not meet the requirements',
    ja: 'モニタリング URL が要件を満たしていません',
  },
  [ErrorCode.AD_TOO_MANY_MATERIALS]: {
    'zh-CN': '每次投放最多选择 20 个素材',
    'en-US': 'An ad can use at most 20 materials',
    ja: '1 回の配信で選べる素材は 20 個までです',
  },
  [ErrorCode.AD_PLAN_NOT_EDITABLE]: {
    'zh-CN': '默认推广计划不可编辑或删除',
    'en-US': 'The default promotion plan cannot be edited or deleted',
    ja: 'デフォルトのプロモーションプランは編集・削除できません',
  },
  [ErrorCode.AD_PLAN_IN_USE]: {
    'zh-CN': '该推广计划下还有广告，无法删除',
    'en-US': 'This promotion plan still has ads and cannot be deleted',
    ja: 'このプロモーションプランには広告があるため削除できません',
  },
  [ErrorCode.AD_TARGET_INVALID]: {
    'zh-CN': '投放对象不存在或无权使用',
    'en-US': 'A selected target does not exist or is not available to you',
    ja: '選択した配信先が存在しないか、利用できません',
  },
  [ErrorCode.AD_NOT_SCHEDULED]: {
    'zh-CN': '广告未在投放中（未审核通过、已暂停、已删除或已过期），无法下发',
    'en-US': 'The ad is not scheduled (not approved, paused, deleted or over): there is nothing to send',
    ja: '広告が配信対象ではありません（未承認・一時停止・削除済み・期限切れ）。送信できません',
  },
  [ErrorCode.INSUFFICIENT_BALANCE]: {
    'zh-CN': '可用余额不足',
    'en-US': 'The available balance is not enough',
    ja: '利用可能残高が不足しています',
  },
  [ErrorCode.TRANSFER_ID_REUSED]: {
    'zh-CN': '该流水号已用于另一笔不同的转账',
    'en-US': 'This transfer id was already used for a different transfer',
    ja: 'この振替 ID は別の振替で既に使用されています',
  },
  [ErrorCode.TRANSFER_PENDING_EXPIRED]: {
    'zh-CN': '冻结已超时，无法再入账',
    'en-US': 'The hold has timed out and can no longer be posted',
    ja: '仮押さえの期限が切れたため、確定できません',
  },
  [ErrorCode.PAYMENT_NOT_PAYABLE]: {
    'zh-CN': '该订单已支付、已关闭、已过期或正在审核，无法支付',
    'en-US': 'This order is paid, closed, expired or under review: it cannot be paid now',
    ja: 'この注文は支払済み・終了・期限切れ・審査中のため、支払えません',
  },
  [ErrorCode.PAYMENT_METHOD_UNAVAILABLE]: {
    'zh-CN': '该支付方式不可用于此订单',
    'en-US': 'This payment method is not available for this order',
    ja: 'この支払方法はこの注文には使用できません',
  },
  [ErrorCode.INVOICE_AMOUNT_EXCEEDED]: {
    'zh-CN': '开票金额超过已支付未开票金额',
    'en-US': 'The invoice amount exceeds what was paid and not yet invoiced',
    ja: 'インボイスの金額が支払済みで未発行の金額を超えています',
  },
  [ErrorCode.INVALID_AMOUNT]: {
    'zh-CN': '无效金额',
    'en-US': 'Invalid amount',
    ja: '無効な金額です',
  },
  [ErrorCode.COMMODITY_ON_SALE]: {
    'zh-CN': '商品在售中，请先下架再修改价格',
    'en-US': 'The product is on sale: take it off shelf before editing its price',
    ja: '商品は販売中です。価格を変更する前に販売を停止してください',
  },
  [ErrorCode.PRODUCT_OFF_SHELF]: {
    'zh-CN': '该商品或所选期限已下架',
    'en-US': 'This product or the chosen term is not on sale',
    ja: 'この商品または選択した期間は販売されていません',
  },
  [ErrorCode.DEVICE_LONG_OFFLINE]: {
    'zh-CN': '设备离线超过 72 小时，无法下单',
    'en-US': 'The device has been offline for more than 72 hours and cannot be ordered for',
    ja: '72 時間を超えてオフラインのデバイスは注文できません',
  },
  [ErrorCode.MARKET_SUBJECT_INVALID]: {
    'zh-CN': '请选择可用于该商品的设备或物联网卡',
    'en-US': 'Choose devices or IoT cards this product applies to',
    ja: 'この商品に適用できるデバイスまたは IoT カードを選択してください',
  },
  [ErrorCode.MARKET_ORDER_STATE]: {
    'zh-CN': '订单已支付、已取消或正在审核，无法取消',
    'en-US': 'The order is paid, cancelled or under review and cannot be cancelled',
    ja: '注文は支払済み、キャンセル済み、または審査中のため、キャンセルできません',
  },
  [ErrorCode.CARD_STATE]: {
    'zh-CN': '物联网卡当前状态不允许此操作',
    'en-US': "The IoT card's current state does not allow this action",
    ja: 'IoT カードの現在の状態ではこの操作はできません',
  },
  [ErrorCode.TIME_CONFLICT]: {
    'zh-CN': '时间冲突',
    'en-US': 'Time conflict',
    ja: '時間が競合しています',
  },
  [ErrorCode.RTB_CAMPAIGN_STATE]: {
    'zh-CN': '该竞价活动已结束，无法执行此操作',
    'en-US': 'The RTB campaign has ended: this is no longer possible',
    ja: 'この RTB キャンペーンは終了しているため、この操作はできません',
  },
  [ErrorCode.RTB_BUDGET_BELOW_COMMITTED]: {
    'zh-CN': '预算不能低于已花费和已中标待验证的金额',
    'en-US': 'The budget cannot be lower than what is spent and reserved for won turns',
    ja: '予算は消化済みおよび落札済み（検証待ち）の金額を下回れません',
  },
  [ErrorCode.ALARM_EVENT_STATE]: {
    'zh-CN': '报警事件当前状态不允许此操作',
    'en-US': "The alarm event's current state does not allow this action",
    ja: 'アラームイベントの現在の状態ではこの操作はできません',
  },
  [ErrorCode.ALARM_REGION_NAME_TAKEN]: {
    'zh-CN': '已存在同名的报警区域',
    'en-US': 'An alarm region with this name already exists',
    ja: '同じ名前のアラームエリアが既にあります',
  },
  [ErrorCode.ALARM_NOTE_REQUIRED]: {
    'zh-CN': '关闭报警事件须填写备注',
    'en-US': 'Closing an alarm event needs a note',
    ja: 'アラームイベントを閉じるにはメモが必要です',
  },
  [ErrorCode.MONITOR_TASK_STATE]: {
    'zh-CN': '监测任务的当前状态不允许此操作',
    'en-US': "The monitoring task's current state does not allow this action",
    ja: '監視タスクの現在の状態ではこの操作はできません',
  },
  [ErrorCode.MONITOR_NOT_GRANTED]: {
    'zh-CN': '该监测账号未获得企业授权',
    'en-US': 'This monitor account has not been granted access by the enterprise',
    ja: 'この監視アカウントは企業から許可されていません',
  },
  [ErrorCode.MONITOR_APPLICATION_PENDING]: {
    'zh-CN': '已有监测申请在等待企业处理',
    'en-US': 'An application to this enterprise is already waiting for a decision',
    ja: 'この企業への申請はすでに承認待ちです',
  },
  [ErrorCode.MONITOR_PHOTOS_MISSING]: {
    'zh-CN': '监测照片数量不足，无法完成任务',
    'en-US': 'Upload the number of photographs the plan asks for before completing the task',
    ja: '計画で求められた枚数の写真をアップロードしてから完了してください',
  },
  [ErrorCode.MONITOR_PHOTO_INVALID]: {
    'zh-CN': '监测照片无效，请上传 JPEG、PNG 或 WebP 图片',
    'en-US': 'The photograph is missing or not a JPEG, PNG or WebP picture',
    ja: '写真がないか、JPEG・PNG・WebP 形式ではありません',
  },
  [ErrorCode.HELP_CATEGORY_NOT_EMPTY]: {
    'zh-CN': '该分类下还有帮助文档，请先移走或删除',
    'en-US': 'This category still holds help documents: move or delete them first',
    ja: 'このカテゴリにはまだヘルプ文書があります。先に移動または削除してください',
  },
  [ErrorCode.HELP_ZH_CN_REQUIRED]: {
    'zh-CN': '请填写帮助文档的简体中文版本',
    'en-US': 'A help document needs its Simplified Chinese version',
    ja: 'ヘルプ文書には簡体字中国語版が必要です',
  },
  [ErrorCode.HELP_IMAGE_INVALID]: {
    'zh-CN': '文档中的图片未上传成功，请重新插入',
    'en-US': 'A picture in the document was not uploaded; insert it again',
    ja: '文書内の画像がアップロードされていません。もう一度挿入してください',
  },
  [ErrorCode.HELP_CATEGORY_NAME_TAKEN]: {
    'zh-CN': '已有同名的帮助分类',
    'en-US': 'Another help category has this name',
    ja: '同じ名前のヘルプカテゴリがすでにあります',
  },
  [ErrorCode.HELP_BODY_TOO_LONG]: {
    'zh-CN': '文档正文过长，请拆分为多篇',
    'en-US': 'The document is too long: split it into several',
    ja: '本文が長すぎます。複数の文書に分けてください',
  },
  [ErrorCode.FEEDBACK_TOO_LONG]: {
    'zh-CN': '反馈描述请在500字以内',
    'en-US': 'Feedback description within 500 characters',
    ja: 'フィードバックの内容は500文字以内で入力してください',
  },
  [ErrorCode.FEEDBACK_STATE]: {
    'zh-CN': '该反馈已关闭，无法继续操作',
    'en-US': 'This feedback is closed',
    ja: 'このフィードバックはクローズ済みです',
  },
  [ErrorCode.FEEDBACK_TOO_MANY_SHOTS]: {
    'zh-CN': '每条反馈最多附 5 张截图',
    'en-US': 'A feedback carries at most 5 screenshots',
    ja: 'スクリーンショットは 1 件のフィードバックにつき 5 枚までです',
  },
  [ErrorCode.FEEDBACK_SHOT_INVALID]: {
    'zh-CN': '截图未上传成功或已失效，请重新上传',
    'en-US': 'A screenshot was not uploaded or is no longer valid; upload it again',
    ja: 'スクリーンショットがアップロードされていないか無効です。もう一度アップロードしてください',
  },
  [ErrorCode.SPECIAL_RESOURCE_STATE]: {
    'zh-CN': '该资源未上架，暂不接受询价',
    'en-US': 'This resource is not listed and takes no inquiries',
    ja: 'このリソースは掲載されていないため、問い合わせできません',
  },
  [ErrorCode.SPECIAL_INQUIRY_STATE]: {
    'zh-CN': '询价的当前状态不允许此操作',
    'en-US': 'The inquiry is in a state that does not allow this',
    ja: '問い合わせの現在の状態ではこの操作はできません',
  },
  [ErrorCode.SPECIAL_CAPACITY_FULL]: {
    'zh-CN': '该资源已被订满',
    'en-US': 'This resource is fully taken',
    ja: 'このリソースは満枠です',
  },
  [ErrorCode.SPECIAL_DATES_INVALID]: {
    'zh-CN': '日期无效：结束日期不能早于开始日期，且须在资源的可售日期内',
    'en-US': 'Invalid dates: the end cannot be before the start, and both must be within the resource’s dates',
    ja: '日付が無効です。終了日は開始日以降で、リソースの期間内である必要があります',
  },
  [ErrorCode.SPECIAL_PHOTO_INVALID]: {
    'zh-CN': '图片未上传成功或已失效，请重新上传',
    'en-US': 'A photo was not uploaded or is no longer valid; upload it again',
    ja: '写真がアップロードされていないか無効です。もう一度アップロードしてください',
  },
  [ErrorCode.FEEDBACK_REPLY_TOO_LONG]: {
    'zh-CN': '回复请在1000字以内',
    'en-US': 'The reply must be within 1000 characters',
    ja: '返信は1000文字以内で入力してください',
  },
  [ErrorCode.WATERMARK_IMAGE_INVALID]: {
    'zh-CN': '水印图片须为本企业素材库中已就绪的图片',
    'en-US': 'The watermark picture must be a ready picture of your library',
    ja: '透かしの画像は自社ライブラリの準備済みの画像である必要があります',
  },
  [ErrorCode.OFFLINE_FILE_MISSING]: {
    'zh-CN': '该设备播放内容中有素材文件不在存储中，无法生成离线包，请重新上传该素材后再试',
    'en-US':
      "A file of this screen's content is not in storage, so no offline package can be made. Upload that material again and retry",
    ja: 'このデバイスの再生内容に保存されていない素材ファイルがあるため、オフラインパッケージを作成できません。素材を再アップロードしてからやり直してください',
  },
  [ErrorCode.UPGRADE_PACKAGE_NOT_READY]: {
    'zh-CN': '升级包尚未上传完成或未校验，请先完成上传',
    'en-US': 'The upgrade package is not uploaded and verified yet. Finish the upload first',
    ja: 'アップグレードパッケージのアップロードまたは検証が完了していません。先にアップロードを完了してください',
  },
  [ErrorCode.UPGRADE_PACKAGE_IN_USE]: {
    'zh-CN': '该升级包已被升级任务使用，无法删除',
    'en-US': 'A rollout uses this upgrade package, so it cannot be deleted',
    ja: 'このアップグレードパッケージはロールアウトで使用中のため削除できません',
  },
  [ErrorCode.UPGRADE_ROLLOUT_STATE]: {
    'zh-CN': '升级任务的当前状态不允许此操作',
    'en-US': "The rollout's current state does not allow this action",
    ja: 'ロールアウトの現在の状態ではこの操作はできません',
  },
  [ErrorCode.UPGRADE_NO_PREVIOUS]: {
    'zh-CN': '找不到可回滚的先前版本升级包，请选择一个升级包',
    'en-US': 'No earlier package to roll back to was found. Choose a package',
    ja: 'ロールバック先の以前のバージョンのパッケージが見つかりません。パッケージを選択してください',
  },
  [ErrorCode.UPGRADE_FILE_MISSING]: {
    'zh-CN': '升级包文件不在存储中，请重新上传',
    'en-US': 'The package file is not in storage. Upload it again',
    ja: 'パッケージファイルがストレージにありません。もう一度アップロードしてください',
  },
  [ErrorCode.UPGRADE_ROLLBACK_SAME_PACKAGE]: {
    'zh-CN': '不能回滚到本升级任务自身的升级包，请选择一个更早的升级包',
    'en-US': 'A rollout cannot be rolled back to its own package. Choose an earlier package',
    ja: 'ロールアウト自身のパッケージにはロールバックできません。以前のパッケージを選択してください',
  },
  [ErrorCode.UPGRADE_ROLLBACK_PACKAGE_MISMATCH]: {
    'zh-CN': '所选升级包的类型或设备型号与本升级任务的不同，不适用于这些设备',
    'en-US':
      "The chosen package is of another kind or device type than the rollout's, so it does not suit these devices",
    ja: '選択したパッケージは種類またはデバイスの型式がロールアウトと異なるため、これらのデバイスには使用できません',
  },
  [ErrorCode.SALES_ORDER_STATE]: {
    'zh-CN': '订单当前状态不允许此操作',
    'en-US': "The order's current state does not allow this action",
    ja: '注文の現在の状態ではこの操作はできません',
  },
  [ErrorCode.COUPON_UNAVAILABLE]: {
    'zh-CN': '优惠券不可用：已停用、未开始、已过期、已用完或不适用于该商品',
    'en-US': 'The coupon cannot be used: disabled, not started, expired, used up or not for these goods',
    ja: 'クーポンは使用できません（停止中・開始前・期限切れ・上限到達、またはこの商品に対象外）',
  },
  [ErrorCode.GOODS_NOT_ON_SALE]: {
    'zh-CN': '商品已下架、已过期或已售罄',
    'en-US': 'The goods are off shelf, expired or sold out',
    ja: '商品は販売停止中、期限切れ、または完売です',
  },
  [ErrorCode.CONTRACT_STATE]: {
    'zh-CN': '合同已签署或已变更，无法执行此操作',
    'en-US': 'The contract is signed or has changed: this action is not possible',
    ja: '契約は署名済みか変更されているため、この操作はできません',
  },
  [ErrorCode.SETTLEMENT_STATE]: {
    'zh-CN': '结算当前状态不允许此操作',
    'en-US': "The settlement's current state does not allow this action",
    ja: '精算の現在の状態ではこの操作はできません',
  },
  [ErrorCode.SLOT_IN_USE]: {
    'zh-CN': '广告位正被在售商品或未完成订单使用，不能修改售卖方式、轮播数和屏幕，也不能删除',
    'en-US':
      'The ad slot is used by goods on sale or open orders: its sales method, rotations and screens cannot change, and it cannot be deleted',
    ja: '広告枠は販売中の商品または未完了の注文で使用中のため、販売方式・ローテーション数・画面の変更や削除はできません',
  },
  [ErrorCode.ESIGN_UNAVAILABLE]: {
    'zh-CN': '未配置电子签章服务（ESIGN_URL）',
    'en-US': 'No e-signature provider is configured (ESIGN_URL)',
    ja: '電子署名サービスが設定されていません（ESIGN_URL）',
  },
  [ErrorCode.CUSTOM_FIELD_KEY_TAKEN]: {
    'zh-CN': '已有同名标识的自定义字段，请换一个标识',
    'en-US': 'Another custom field already uses this key. Choose a different key',
    ja: 'このキーは別のカスタム項目で使用されています。別のキーを指定してください',
  },
  [ErrorCode.CUSTOM_FIELD_VALUE_INVALID]: {
    'zh-CN': '自定义字段的值不符合其类型或选项',
    'en-US': "A custom field's value does not match its type or options",
    ja: 'カスタム項目の値が型または選択肢に合いません',
  },
  [ErrorCode.CUSTOM_FIELD_REQUIRED]: {
    'zh-CN': '请填写必填的自定义字段',
    'en-US': 'Fill in the required custom field',
    ja: '必須のカスタム項目を入力してください',
  },
  [ErrorCode.CUSTOM_FIELD_LIMIT]: {
    'zh-CN': '自定义字段数量已达上限',
    'en-US': 'The enterprise has reached the maximum number of custom fields',
    ja: 'カスタム項目の数が上限に達しています',
  },
  [ErrorCode.CUSTOM_FIELD_TYPE_LOCKED]: {
    'zh-CN': '已有设备填写了该字段，不能修改其类型',
    'en-US': 'Devices already hold values of this field, so its type cannot change',
    ja: 'この項目に値を持つデバイスがあるため、型を変更できません',
  },
  [ErrorCode.DICTIONARY_CODE_TAKEN]: {
    'zh-CN': '该字典中已有此编码',
    'en-US': 'Another entry of this dictionary has this code',
    ja: 'この辞書には同じコードの項目がすでにあります',
  },
  [ErrorCode.DICTIONARY_IN_USE]: {
    'zh-CN': '已有数据使用此项，无法删除，请改为停用',
    'en-US': 'Data uses this entry, so it cannot be deleted: disable it instead',
    ja: 'この項目を使用しているデータがあるため削除できません。無効にしてください',
  },
  [ErrorCode.DICTIONARY_FIXED]: {
    'zh-CN': '此字典的编码由标准规定，不能新增或删除，只能修改名称、排序和启用状态',
    'en-US':
      'This dictionary’s codes are set by a standard: entries cannot be added or deleted, only renamed, reordered, enabled or disabled',
    ja: 'この辞書のコードは標準で定められているため、追加・削除はできません。名称・並び順・有効/無効のみ変更できます',
  },
  [ErrorCode.DICTIONARY_VALUE_INVALID]: {
    'zh-CN': '所选项不存在或已停用，请重新选择',
    'en-US': 'The chosen entry does not exist or is disabled: choose another',
    ja: '選択した項目は存在しないか無効になっています。選び直してください',
  },
  [ErrorCode.DICTIONARY_LAST_ENABLED]: {
    'zh-CN': '字典至少需要保留一个启用的项',
    'en-US': 'A dictionary keeps at least one enabled entry',
    ja: '辞書には有効な項目が少なくとも 1 つ必要です',
  },
};

export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US', 'ja'];
export const FALLBACK_LOCALE: Locale = 'zh-CN';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The message of a code in a locale, falling back to zh-CN. */
export function errorMessage(code: ErrorCodeValue, locale: string | undefined): string {
  const messages = errorMessages[code];
  return isLocale(locale) ? messages[locale] : messages[FALLBACK_LOCALE];
}

/** The codes after which the console ends the session and goes to /login (spec section 8). */
export const LOGOUT_CODES: readonly number[] = [ErrorCode.TOKEN_INVALID, ErrorCode.SESSION_ENDED];
