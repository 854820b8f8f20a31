-- Issue 25: the players of the demo fleet (src/demo/fleet.ts) are marked, so the device list can say so.
ALTER TABLE "devices" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;
