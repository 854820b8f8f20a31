CREATE TABLE "dictionary_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"labels" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "dictionary_entries_kind_code_idx" ON "dictionary_entries" USING btree ("kind","code");--> statement-breakpoint
-- A device's type is now a code of the dictionary `deviceType`, which the operator extends: the
-- service checks it against the enabled entries (old values stay valid), not a fixed list here.
ALTER TABLE "devices" DROP CONSTRAINT "devices_type_check";--> statement-breakpoint
-- Dictionaries (issue 31): the lists that were in code become the dictionary's first entries,
-- with the console's own labels (devices.json type.*, rtb.json venue.*), in the code's order.
INSERT INTO "dictionary_entries" ("id", "kind", "code", "labels", "sort") VALUES
  (gen_random_uuid()::text, 'deviceType', 'lcd', '{"zh-CN":"液晶屏","en-US":"LCD screen","ja":"液晶スクリーン"}', 0),
  (gen_random_uuid()::text, 'deviceType', 'led', '{"zh-CN":"LED 屏","en-US":"LED screen","ja":"LED スクリーン"}', 1),
  (gen_random_uuid()::text, 'deviceType', 'touch', '{"zh-CN":"触摸屏","en-US":"Touch screen","ja":"タッチスクリーン"}', 2),
  (gen_random_uuid()::text, 'deviceType', 'outdoor', '{"zh-CN":"户外屏","en-US":"Outdoor screen","ja":"屋外スクリーン"}', 3),
  (gen_random_uuid()::text, 'deviceType', 'projector', '{"zh-CN":"投影仪","en-US":"Projector","ja":"プロジェクター"}', 4),
  (gen_random_uuid()::text, 'deviceType', 'other', '{"zh-CN":"其他","en-US":"Other","ja":"その他"}', 5),
  (gen_random_uuid()::text, 'venueType', 'transit.airports', '{"zh-CN":"机场","en-US":"Airports","ja":"空港"}', 0),
  (gen_random_uuid()::text, 'venueType', 'transit.buses', '{"zh-CN":"公交车","en-US":"Buses","ja":"バス車内"}', 1),
  (gen_random_uuid()::text, 'venueType', 'transit.bus_shelters', '{"zh-CN":"公交候车亭","en-US":"Bus shelters","ja":"バス停"}', 2),
  (gen_random_uuid()::text, 'venueType', 'transit.subway', '{"zh-CN":"地铁","en-US":"Subway","ja":"地下鉄"}', 3),
  (gen_random_uuid()::text, 'venueType', 'transit.train_stations', '{"zh-CN":"火车站","en-US":"Train stations","ja":"鉄道駅"}', 4),
  (gen_random_uuid()::text, 'venueType', 'transit.taxi_and_rideshare_tv', '{"zh-CN":"出租车与网约车","en-US":"Taxis and ride-hailing","ja":"タクシー・ライドシェア"}', 5),
  (gen_random_uuid()::text, 'venueType', 'retail.malls', '{"zh-CN":"购物中心","en-US":"Shopping malls","ja":"ショッピングモール"}', 6),
  (gen_random_uuid()::text, 'venueType', 'retail.grocery', '{"zh-CN":"超市","en-US":"Grocery stores","ja":"スーパーマーケット"}', 7),
  (gen_random_uuid()::text, 'venueType', 'retail.convenience_stores', '{"zh-CN":"便利店","en-US":"Convenience stores","ja":"コンビニ"}', 8),
  (gen_random_uuid()::text, 'venueType', 'retail.gas_stations', '{"zh-CN":"加油站","en-US":"Gas stations","ja":"ガソリンスタンド"}', 9),
  (gen_random_uuid()::text, 'venueType', 'outdoor.billboards', '{"zh-CN":"户外大牌","en-US":"Billboards","ja":"屋外看板"}', 10),
  (gen_random_uuid()::text, 'venueType', 'outdoor.urban_panels', '{"zh-CN":"街道灯箱","en-US":"Street panels","ja":"街頭パネル"}', 11),
  (gen_random_uuid()::text, 'venueType', 'office_buildings.office_buildings', '{"zh-CN":"写字楼","en-US":"Office buildings","ja":"オフィスビル"}', 12),
  (gen_random_uuid()::text, 'venueType', 'entertainment.movie_theaters', '{"zh-CN":"电影院","en-US":"Cinemas","ja":"映画館"}', 13),
  (gen_random_uuid()::text, 'venueType', 'health_and_beauty.gyms', '{"zh-CN":"健身房","en-US":"Gyms","ja":"ジム"}', 14),
  (gen_random_uuid()::text, 'venueType', 'point_of_care.doctor_offices', '{"zh-CN":"诊所与医院","en-US":"Clinics and doctors'' offices","ja":"診療所・クリニック"}', 15);
--> statement-breakpoint
-- The built-in platform operator roles keep the dictionaries (a new provider-only code; new
-- installations get it from the seed, existing ones here).
UPDATE "roles" SET "permission_codes" = (
  SELECT array_agg(DISTINCT c) FROM unnest("permission_codes" || ARRAY['yxf_new_dictionary_manage']) AS c
) WHERE "builtin_key" = 'platform_operator';
