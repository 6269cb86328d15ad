# Kymo: `make run` and `make test` are all a new machine needs.
BUILD       ?= build
ASAN_BUILD  ?= build-asan
BENCH_BUILD ?= build-bench
FUZZ_BUILD  ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all deps build run test bench fuzz clean install

all: build

deps:
	@.ci/install-deps

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: deps $(BUILD)/build.ninja
	meson compile -C $(BUILD)

run: build
	GSETTINGS_SCHEMA_DIR=$(BUILD)/data ./$(BUILD)/src/app/kymo $(BUILD)/src/demo/kymo-demo-session

test: build
	tests/run-tests.sh

# Whole processes of the default build (what `make run` gives) and of the
# release build beside it, then the in-process benchmarks.
bench: build
	@[ -f $(BENCH_BUILD)/build.ninja ] || meson setup $(BENCH_BUILD) -Dbuildtype=release -Db_ndebug=true
	meson compile -C $(BENCH_BUILD)
	tests/bench/run-bench.sh $(BENCH_BUILD) $(BUILD)

fuzz: deps
	@[ -f $(FUZZ_BUILD)/build.ninja ] || CC=clang meson setup $(FUZZ_BUILD) -Dui=false -Dfuzz=true \
	  -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized
	meson compile -C $(FUZZ_BUILD)
	@for t in dial9 rtc atf wtf tband; do \
	  echo "== fuzz-$$t for $(FUZZ_SECONDS) s =="; \
	  mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
	  ./$(FUZZ_BUILD)/tests/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/corpus-$$t tests/fuzz/corpus/$$t || exit 1; \
	done

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(BENCH_BUILD) $(FUZZ_BUILD)
