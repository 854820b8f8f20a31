-- Dictionaries (issue 31): a device's scene (spec section 3 Device 'scene': where the screen
-- stands, a mall, a lobby, a lift) is a code of the new open dictionary `scene`, checked by the
-- service like the type; null: not given. Indexed like the type for the list's filter.
ALTER TABLE "devices" ADD COLUMN "scene" text;--> statement-breakpoint
CREATE INDEX "devices_ent_scene_idx" ON "devices" USING btree ("ent_id","scene");--> statement-breakpoint
-- The first scenes: the common places of signage screens.
INSERT INTO "dictionary_entries" ("id", "kind", "code", "labels", "sort") VALUES
  (gen_random_uuid()::text, 'scene', 'mall', '{"zh-CN":"商场","en-US":"Shopping mall","ja":"ショッピングモール"}', 0),
  (gen_random_uuid()::text, 'scene', 'storefront', '{"zh-CN":"门店","en-US":"Storefront","ja":"店頭"}', 1),
  (gen_random_uuid()::text, 'scene', 'restaurant', '{"zh-CN":"餐饮","en-US":"Restaurant","ja":"飲食店"}', 2),
  (gen_random_uuid()::text, 'scene', 'lobby', '{"zh-CN":"大堂","en-US":"Lobby","ja":"ロビー"}', 3),
  (gen_random_uuid()::text, 'scene', 'elevator', '{"zh-CN":"电梯","en-US":"Elevator","ja":"エレベーター"}', 4),
  (gen_random_uuid()::text, 'scene', 'office', '{"zh-CN":"办公楼","en-US":"Office","ja":"オフィス"}', 5),
  (gen_random_uuid()::text, 'scene', 'transit', '{"zh-CN":"交通枢纽","en-US":"Transit station","ja":"交通機関"}', 6),
  (gen_random_uuid()::text, 'scene', 'outdoor', '{"zh-CN":"户外","en-US":"Outdoor","ja":"屋外"}', 7),
  (gen_random_uuid()::text, 'scene', 'hospital', '{"zh-CN":"医院","en-US":"Hospital","ja":"病院"}', 8),
  (gen_random_uuid()::text, 'scene', 'school', '{"zh-CN":"学校","en-US":"School","ja":"学校"}', 9),
  (gen_random_uuid()::text, 'scene', 'hotel', '{"zh-CN":"酒店","en-US":"Hotel","ja":"ホテル"}', 10),
  (gen_random_uuid()::text, 'scene', 'other', '{"zh-CN":"其他","en-US":"Other","ja":"その他"}', 11);
--> statement-breakpoint
-- The common screen diagonals (inches) the device form offers; the field stays a free number,
-- so a code is the number itself and nothing stored names an entry.
INSERT INTO "dictionary_entries" ("id", "kind", "code", "labels", "sort") VALUES
  (gen_random_uuid()::text, 'screenSize', '32', '{"zh-CN":"32 英寸","en-US":"32 inches","ja":"32 インチ"}', 0),
  (gen_random_uuid()::text, 'screenSize', '43', '{"zh-CN":"43 英寸","en-US":"43 inches","ja":"43 インチ"}', 1),
  (gen_random_uuid()::text, 'screenSize', '49', '{"zh-CN":"49 英寸","en-US":"49 inches","ja":"49 インチ"}', 2),
  (gen_random_uuid()::text, 'screenSize', '55', '{"zh-CN":"55 英寸","en-US":"55 inches","ja":"55 インチ"}', 3),
  (gen_random_uuid()::text, 'screenSize', '65', '{"zh-CN":"65 英寸","en-US":"65 inches","ja":"65 インチ"}', 4),
  (gen_random_uuid()::text, 'screenSize', '75', '{"zh-CN":"75 英寸","en-US":"75 inches","ja":"75 インチ"}', 5),
  (gen_random_uuid()::text, 'screenSize', '86', '{"zh-CN":"86 英寸","en-US":"86 inches","ja":"86 インチ"}', 6),
  (gen_random_uuid()::text, 'screenSize', '98', '{"zh-CN":"98 英寸","en-US":"98 inches","ja":"98 インチ"}', 7),
  (gen_random_uuid()::text, 'screenSize', '110', '{"zh-CN":"110 英寸","en-US":"110 inches","ja":"110 インチ"}', 8),
  (gen_random_uuid()::text, 'screenSize', '138', '{"zh-CN":"138 英寸","en-US":"138 inches","ja":"138 インチ"}', 9);
