// Reads the claim parts of a built site (plan/data/*.js) as the plan and setup pages' scripts
// read them, for the site package's tests: node parts.js <site>. Prints {claims, plan, setup}:
// every claim as shards.js claimsOf reads it, the planner's data ({claims, projects}, plan.js addClaims over every part, then settleTargets
// with every part loaded) and the setup check's claims (setupcheck.js setupView).
"use strict";
var fs = require("fs");
var path = require("path");
var assets = path.join(__dirname, "..", "..", "assets");
var S = require(path.join(assets, "shards.js"));
var P = require(path.join(assets, "plan.js"));
var check = require(path.join(assets, "setupcheck.js"));

var dir = path.join(process.argv[2], "plan", "data");
var texts = {};
global.AshyamsData = function (name, text) { texts[name] = text; };
fs.readdirSync(dir).sort().forEach(function (f) {
  new Function(fs.readFileSync(path.join(dir, f), "utf8"))(); // one AshyamsData call
});
var plan = { claims: Object.create(null), projects: Object.create(null) };
var setup = Object.create(null), claims = Object.create(null);
Object.keys(texts).forEach(function (name) {
  S.merge(claims, S.claimsOf(JSON.parse(texts[name])));
  P.addClaims(plan, S.claimsOf(JSON.parse(texts[name])));
  S.merge(setup, check.setupView(S.claimsOf(JSON.parse(texts[name]))));
});
P.settleTargets(plan, function () { return true; });
process.stdout.write(JSON.stringify({ claims: claims, plan: plan, setup: setup }));
