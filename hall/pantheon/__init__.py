"""Pantheon (MahjongPantheon/pantheon) for riichi: its Twirp JSON API (:mod:`hall.pantheon.client`), a refereed
hand as its ``Round`` (:mod:`hall.pantheon.rounds`), and a durable outbox that sends each hand once
(:mod:`hall.pantheon.outbox`). See docs/hall.md, "Working with Pantheon, EMA and mahjong-portal"."""
