-- Dictionaries (issue 31): an advertiser's industry (what a sales team files its customers by)
-- is a code of the new open dictionary `industry`, checked by the service like a device's scene;
-- null: not given. Indexed with the enterprise for the advertiser list's filter.
ALTER TABLE "advertisers" ADD COLUMN "industry" text;--> statement-breakpoint
CREATE INDEX "advertisers_ent_industry_idx" ON "advertisers" USING btree ("ent_id","industry");--> statement-breakpoint
-- The first industries: the usual sectors of out-of-home advertisers.
INSERT INTO "dictionary_entries" ("id", "kind", "code", "labels", "sort") VALUES
  (gen_random_uuid()::text, 'industry', 'food_beverage', '{"zh-CN":"餐饮食品","en-US":"Food and beverage","ja":"飲食・食品"}', 0),
  (gen_random_uuid()::text, 'industry', 'retail', '{"zh-CN":"零售","en-US":"Retail","ja":"小売"}', 1),
  (gen_random_uuid()::text, 'industry', 'finance', '{"zh-CN":"金融","en-US":"Finance","ja":"金融"}', 2),
  (gen_random_uuid()::text, 'industry', 'education', '{"zh-CN":"教育培训","en-US":"Education","ja":"教育"}', 3),
  (gen_random_uuid()::text, 'industry', 'healthcare', '{"zh-CN":"医疗健康","en-US":"Healthcare","ja":"医療・ヘルスケア"}', 4),
  (gen_random_uuid()::text, 'industry', 'automotive', '{"zh-CN":"汽车","en-US":"Automotive","ja":"自動車"}', 5),
  (gen_random_uuid()::text, 'industry', 'real_estate', '{"zh-CN":"房地产","en-US":"Real estate","ja":"不動産"}', 6),
  (gen_random_uuid()::text, 'industry', 'travel', '{"zh-CN":"旅游出行","en-US":"Travel and tourism","ja":"旅行・観光"}', 7),
  (gen_random_uuid()::text, 'industry', 'technology', '{"zh-CN":"互联网科技","en-US":"Technology","ja":"IT・テクノロジー"}', 8),
  (gen_random_uuid()::text, 'industry', 'telecom', '{"zh-CN":"通信","en-US":"Telecommunications","ja":"通信"}', 9),
  (gen_random_uuid()::text, 'industry', 'beauty', '{"zh-CN":"美妆个护","en-US":"Beauty and personal care","ja":"美容・化粧品"}', 10),
  (gen_random_uuid()::text, 'industry', 'entertainment', '{"zh-CN":"文化娱乐","en-US":"Entertainment","ja":"エンターテインメント"}', 11),
  (gen_random_uuid()::text, 'industry', 'home', '{"zh-CN":"家居家电","en-US":"Home and appliances","ja":"住まい・家電"}', 12),
  (gen_random_uuid()::text, 'industry', 'other', '{"zh-CN":"其他","en-US":"Other","ja":"その他"}', 13);
