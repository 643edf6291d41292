package data

import "fmt"

// The remote files of the named data sets: where each lies under the data root (the
// layout ../shared/data uses), its canonical address, and its SHA-256 where it could be
// verified from bytes the project holds (the shared files, or a file inside a shared
// zip hashed after extraction; TestFetchPinnedChecksumsMatchSharedBytes checks each
// against them). Every other checksum is left empty, meaning unknown: see
// FetchOptions.TrustNew.

// Canonical hosts of the remote files.
const (
	gnnBenchmarkURL = "https://github.com/shchur/gnn-benchmark/raw/master/data/npz/"
	mnistIDXURL     = "https://ossci-datasets.s3.amazonaws.com/mnist/"
	mnistPNGURL     = "https://github.com/taneishi/convnetjs/raw/f741ae5/demo/mnist/"
	ogbNodeURL      = "http://snap.stanford.edu/ogb/data/nodeproppred/"
	malnetURL       = "http://malnet.cc.gatech.edu/"
)

// Notes of files that no canonical distribution holds in the layout the loaders read.
const (
	peptidesSplitNote = "LRGB distributes this split only as a Python pickle (%s), which gexph never " +
		"unpickles; convert it once with Python: python3 -c \"import pickle,json,sys; " +
		"s=pickle.load(open(sys.argv[1],'rb')); json.dump({k: [int(i) for i in v] for k, v in s.items()}, " +
		"open(sys.argv[2],'w'))\" SPLIT.pickle %s, or fetch it from a mirror of ../shared/data (-mirror)"
	peptidesFuncPickle   = "https://www.dropbox.com/s/j4zcnx2eipuo0xz/splits_random_stratified_peptide.pickle?dl=1"
	peptidesStructPickle = "https://www.dropbox.com/s/9dfifzft1hqgow6/splits_random_stratified_peptide_structure.pickle?dl=1"
)

// remoteSources returns the remote files of the named data set (nil for generated data
// sets and those gexph cannot read).
func remoteSources(name string) []RemoteFile {
	gnn := func(file, sha string, size int64) []RemoteFile {
		return []RemoteFile{{Path: "gnn-benchmark/" + file, URL: gnnBenchmarkURL + file, SHA256: sha, Size: size}}
	}
	switch name {
	case "computers":
		return gnn("amazon_electronics_computers.npz", "736ba1d9fd85eac2da83a5ad25c463f04b0031a6ca01563f90a7099d9e8ffb2c", 31921488)
	case "photo":
		return gnn("amazon_electronics_photo.npz", "", 0)
	case "cs":
		return gnn("ms_academic_cs.npz", "933c745734e78908c7eb77172a673fee0503f30e26e5a99b36814d88534c42e3", 12835626)
	case "physics":
		return gnn("ms_academic_phy.npz", "", 0)
	case "cora":
		return gnn("cora.npz", "068e22d90c3849b4057dfb05851741428992af058efcd4e7ebb4186f3d581de2", 540580)
	case "citeseer":
		return gnn("citeseer.npz", "280278b21b434c047922e8389518861416fb3ad39389c27865ff0e6bbb0aaab7", 1348784)
	case "peptides-func":
		return []RemoteFile{
			{Path: "peptides-func/" + PeptidesCSV, URL: "https://www.dropbox.com/s/ol2v01usvaxbsr8/peptide_multi_class_dataset.csv.gz?dl=1",
				SHA256: "e314f7dfb1ac46ef83fe5f5aa4fe502ad4527da633b64e6b997cb0c452511de3", Size: 769970},
			{Path: "peptides-func/" + PeptidesSplit, SHA256: "664f85e36aacf243becf369ea60884c1033cf86f3448549deb6e7617595c86d3", Size: 97665,
				Note: fmt.Sprintf(peptidesSplitNote, peptidesFuncPickle, "peptides-func/"+PeptidesSplit)},
		}
	case "peptides-struct":
		return []RemoteFile{
			{Path: "peptides-struct/" + PeptidesStructCSV, URL: "https://www.dropbox.com/s/464u3303eu2u4zp/peptide_structure_dataset.csv.gz?dl=1"},
			{Path: "peptides-struct/" + PeptidesStructSplit,
				Note: fmt.Sprintf(peptidesSplitNote, peptidesStructPickle, "peptides-struct/"+PeptidesStructSplit)},
		}
	case "mnist":
		return mnistSources()
	case "cifar10":
		return []RemoteFile{{Path: "cifar10/" + CIFAR10Archive, URL: "https://www.cs.toronto.edu/~kriz/" + CIFAR10Archive}}
	case "ogbn-arxiv", "ogbn-products":
		short := name[len("ogbn-"):]
		return []RemoteFile{{Path: name + "/" + short + ".zip", URL: ogbNodeURL + short + ".zip",
			Unpack: "zip", Strip: short + "/", Into: name, Done: name + "/raw"}}
	case "malnet-tiny":
		return []RemoteFile{
			{Path: "malnet-tiny/malnet-graphs-tiny.tar.gz", URL: malnetURL + "graph-data/malnet-graphs-tiny.tar.gz",
				Unpack: "tar.gz", Into: "malnet-tiny", Done: "malnet-tiny/" + MalNetTinyGraphs},
			{Path: "malnet-tiny/split_info_tiny.zip", URL: malnetURL + "split-info/split_info_tiny.zip",
				Unpack: "zip", Into: "malnet-tiny", Done: "malnet-tiny/" + MalNetTinySplits},
		}
	}
	return nil
}

// mnistSources lists the MNIST files the loader reads: the official IDX test images and
// labels and training labels (byte-identical to those the project holds: their MD5s are
// the ones torchvision pins), and the training images as the 20 PNG batches of the convnetjs demo, from the fork and commit the
// project's copies came from. The official train-images-idx3-ubyte.gz is not fetched:
// the loader reads the training images from the PNG batches.
func mnistSources() []RemoteFile {
	idx := []struct {
		file, sha string
		size      int64
	}{
		{MNISTTrainLabels, "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c", 28881},
		{MNISTTestLabels, "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6", 4542},
		{MNISTTestImages, "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6", 1648877},
	}
	var out []RemoteFile
	for _, f := range idx {
		out = append(out, RemoteFile{Path: "mnist/" + f.file, URL: mnistIDXURL + f.file, SHA256: f.sha, Size: f.size})
	}
	for b, p := range mnistPNGs() {
		name := MNISTBatchPNG(b)
		out = append(out, RemoteFile{Path: "mnist/" + name, URL: mnistPNGURL + name, SHA256: p.sha, Size: p.size})
	}
	return out
}

// pinned is a checksum and size.
type pinned struct {
	sha  string
	size int64
}

// mnistPNGs returns the checksums and sizes of mnist_batch_0.png … mnist_batch_19.png.
func mnistPNGs() []pinned {
	return []pinned{
		{"ca53f994c4abaf8d175b83c603602c45f0ea504c134a2b42a53246609d3781ad", 970625},
		{"60784b29b18f3f5f4ef53d4307cedb2df117bc211c84bf49e0e1c97300cc7a63", 974120},
		{"e5ae46f79c313059ab3e0d8d17cbf12fe98d791154f62e9e467042abca8e2058", 960668},
		{"b91ac0b0d9f13b0afd21708f3160ed9d7d5e1631b04d449855450305679b2740", 958268},
		{"dc2dd79098edac4ecd0d7375c689bbe38e6b12ac22bab4a3f3301612ccc2ad82", 965006},
		{"89a6fc28d18667bb51b9146005b3a30a54048ee27c69de8e50492983185019ad", 966163},
		{"04c1d3a7561432fe3844aaf1c9ab12285b50c68843021fc2c85b9c1b24a15ada", 957881},
		{"ae8231372b8dd0fa689ccd4b3202ce20a6d2127fb90bfe394e087e7637e29454", 967440},
		{"32f190659f2baaa2def40f32e2fd3031f43f6b9f429326a93b6fced5a91eaeeb", 942934},
		{"eb8d82cd6307a292e2a63f014a6003292c1ef6830570d635db4cc29db49ebbaa", 963341},
		{"930702f532823fd5731d3d71dc72ecc104c07a6de3689ea425d682bf7326af84", 967607},
		{"2e0d9752b3e25287288e031ebe5014d35203154981b0a2e6e8d77aa61667b304", 967369},
		{"fa7c68d5fca27059450d30a89db645d1d13cf31ea0edd33240084ee41732e7f8", 972320},
		{"9814aa14084fdd88dfa4c1b0c1df0006260b206058c8688f9b5bcedccd679129", 962448},
		{"bf8459c336cfb62d1e181dc4a52d973c59a159421f34e569dea63ae4012a8a1d", 971720},
		{"1ed1857441d6ea5ae339ab693aa8721bdb61a3475f2597366651895f3a1735eb", 978277},
		{"ba8f57f0639a3203b78133ae8aa7b2e31444a71db8f7179a32eb5cac9f83fe6c", 965254},
		{"9898719f3316b0aa9779a1dad3846af47a824969c5b26dc86d52dda3dedba7ff", 977631},
		{"4d942b4c2ec44a9210d61d39fc984ec703640b74c306838f591008d31c51e1f6", 953506},
		{"01d8e87fb89990feec39f958740784afbadb53d59429665a615daab6e043d876", 982712},
	}
}
